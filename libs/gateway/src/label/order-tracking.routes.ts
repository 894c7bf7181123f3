import { Injectable } from '@nestjs/common';
import { LabelTopic, OrderTopic, OrderTrackingView } from '@consign/contracts';
import { longIdParam } from '../http/route-inputs';
import { RouteGroup, route } from '../http/route-table';

/** Spec endpoint 8: label-tracking follows an order's shipments. */
@Injectable()
export class OrderTrackingRoutes implements RouteGroup {
  readonly name = 'OrderTracking';
  readonly tag = 'Orders';
  readonly prefix = '2025-07/cloud/order';

  readonly routes = [
    /**
     * One tracking object per shipment of the order (none before it ships), checkpoints latest
     * first with `local_time` as `yyyy-MM-dd HH:mm:ss` (UTC). An unknown order is a 404.
     */
    route({
      name: 'tracking',
      method: 'GET',
      path: 'tracking/:order_id',
      summary: 'Order tracking',
      params: { order_id: longIdParam('The order id.') },
      response: {
        data: [OrderTrackingView],
        description: '`data` is the tracking of each shipment of the order; empty before it ships.',
      },
      handle: async ({ bus, merchantId, correlationId, params }): Promise<OrderTrackingView[]> => {
        const query = { merchant_id: merchantId, order_id: params.order_id };
        const context = { key: params.order_id, correlationId };
        const shipments = await bus.call(LabelTopic.GetOrderTracking, query, context);
        // No shipment: an order that has not shipped yet (an empty list), or none of the merchant's.
        if (shipments.length === 0) await bus.call(OrderTopic.Get, query, context);
        return shipments;
      },
    }),
  ];
}
