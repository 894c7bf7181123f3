import { Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { LabelTopic, OrderTopic, OrderTrackingView } from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import { ApiEnvelope, LongId } from '../http/api-envelope';
import { idParam } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';

/** Spec endpoint 8: label-tracking follows an order's shipments. */
@ApiTags('Orders')
@ApiController('2025-07/cloud/order')
export class OrderTrackingController {
  constructor(private readonly bus: GatewayBus) {}

  /**
   * One tracking object per shipment of the order (none before it ships), checkpoints latest
   * first with `local_time` as `yyyy-MM-dd HH:mm:ss` (UTC). An unknown order is a 404.
   */
  @Get('tracking/:order_id')
  @ApiOperation({ summary: 'Order tracking' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @ApiEnvelope([OrderTrackingView], {
    description: '`data` is the tracking of each shipment of the order; empty before it ships.',
  })
  async tracking(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('order_id', idParam('order_id')) orderId: number,
  ): Promise<OrderTrackingView[]> {
    const query = { merchant_id: merchantId, order_id: orderId };
    const context = { key: orderId, correlationId };
    const shipments = await this.bus.call(LabelTopic.GetOrderTracking, query, context);
    // No shipment: an order that has not shipped yet (an empty list), or none of the merchant's.
    if (shipments.length === 0) await this.bus.call(OrderTopic.Get, query, context);
    return shipments;
  }
}
