import { Body, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  FreightCostResultView,
  OrderCostResultView,
  RatingTopic,
} from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import { ApiEnvelope } from '../http/api-envelope';
import { contract } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';

/** Spec endpoints 3 and 4 (docs/pricing.md explains the figures). */
@ApiTags('Cost calculation')
@ApiController('2025-07/cloud/calculate')
export class CalculateController {
  constructor(private readonly bus: GatewayBus) {}

  /**
   * One cost result per candidate origin warehouse, eligible service and inco term; a candidate
   * that cannot be served is an element with its own `code` and `error_code`.
   */
  @Put('order')
  @ApiOperation({
    summary: 'Calculate order cost',
    description: 'Per candidate origin warehouse and eligible service; see docs/pricing.md.',
  })
  @ApiEnvelope([OrderCostResultView], {
    description:
      '`data` holds one cost result per candidate: successes by `amount` ascending, then the candidates that cannot serve, each with its `error_code`.',
  })
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
  @ApiOperation({
    summary: 'Calculate freight',
    description: 'One service between two addresses; see docs/pricing.md.',
  })
  @ApiEnvelope(FreightCostResultView, { description: '`data` is the cost result.', errors: [422] })
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
