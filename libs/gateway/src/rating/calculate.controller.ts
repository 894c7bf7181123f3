import { Body, Controller, Put } from '@nestjs/common';
import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  FreightCostResultView,
  OrderCostResultView,
  RatingTopic,
} from '@consign/contracts';
import { MerchantId } from '../auth/api-key.guard';
import { contract } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';

/** Spec endpoints 3 and 4 (docs/pricing.md explains the figures). */
@Controller('2025-07/cloud/calculate')
export class CalculateController {
  constructor(private readonly bus: GatewayBus) {}

  /**
   * One cost result per candidate origin warehouse, eligible service and inco term; a candidate
   * that cannot be served is an element with its own `code` and `error_code`.
   */
  @Put('order')
  order(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Body(contract(CalculateOrderRequest)) request: CalculateOrderRequest,
  ): Promise<OrderCostResultView[]> {
    return this.bus.call(
      RatingTopic.CalculateOrder,
      { merchant_id: merchantId, request },
      { key: merchantId, correlationId },
    );
  }

  /** The price of one service between two addresses, without warehouse fees. */
  @Put('freight')
  freight(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Body(contract(CalculateFreightRequest)) request: CalculateFreightRequest,
  ): Promise<FreightCostResultView> {
    return this.bus.call(
      RatingTopic.CalculateFreight,
      { merchant_id: merchantId, request },
      { key: merchantId, correlationId },
    );
  }
}
