import { Injectable } from '@nestjs/common';
import {
  CreateOrderRequest,
  HoldOrderRequest,
  LabelTopic,
  OrderPageView,
  OrderTopic,
  OrderView,
  PageQuery,
  ShipOrderRequest,
  ApiKeyRole,
} from '@consign/contracts';
import { LongId } from '../http/api-envelope';
import { longIdParam, pageOf } from '../http/route-inputs';
import { RouteGroup, forward } from '../http/route-table';
import { TrackingTokenService } from '../tracking/tracking-token.service';

/**
 * Spec endpoints 5–7, and the operations on an order: the merchant cancels, holds and releases;
 * operators (keys with the operator role, acting on their own merchant account's orders) start
 * picking and ship. Each answers the order as it is after the change.
 */
@Injectable()
export class OrderRoutes implements RouteGroup {
  readonly name = 'Order';
  readonly tag = 'Orders';
  readonly prefix = '2025-07/cloud/order';

  constructor(private readonly tracking: TrackingTokenService) {}

  readonly routes = [
    /** Create an order; `data` is the new order id. It starts Draft; stock makes it Approved or OnHold. */
    forward({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create an order',
      body: CreateOrderRequest,
      response: {
        data: LongId,
        description:
          'Created: `data` is the new order id (status Draft; stock is reserved asynchronously: Approved or OnHold).',
      },
      topic: OrderTopic.Create,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, order: body }),
    }),
    /** A page of the merchant’s orders, newest first. */
    forward({
      name: 'list',
      method: 'GET',
      path: '',
      summary: 'List orders',
      query: PageQuery,
      response: {
        data: OrderPageView,
        description: '`data` is one page of the merchant’s orders, newest first, with the total.',
      },
      topic: OrderTopic.List,
      request: ({ merchantId, query }) => ({ merchant_id: merchantId, ...pageOf(query) }),
      reply: (page, { merchantId, origin }): OrderPageView => ({
        ...page,
        list: page.list.map((order) => this.withTrackingUrl(merchantId, order, origin)),
      }),
    }),
    forward({
      name: 'get',
      method: 'GET',
      path: ':order_id',
      summary: 'Get an order',
      params: { order_id: longIdParam('The order id.') },
      response: { data: OrderView, description: '`data` is the order.' },
      topic: OrderTopic.Get,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, order_id: params.order_id }),
      key: ({ params }) => params.order_id,
      reply: (order, { merchantId, origin }) => this.withTrackingUrl(merchantId, order, origin),
    }),
    /** Cancel a Draft, OnHold or Approved order; its reserved stock is released. */
    forward({
      name: 'cancel',
      method: 'POST',
      path: ':order_id/cancel',
      summary: 'Cancel an order',
      params: { order_id: longIdParam('The order id.') },
      response: {
        data: OrderView,
        description: '`data` is the cancelled order; reserved stock is released.',
        errors: [409],
      },
      topic: OrderTopic.Cancel,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, order_id: params.order_id }),
      key: ({ params }) => params.order_id,
    }),
    /** Hold a Draft or Approved order (body optional: `reason`). */
    forward({
      name: 'hold',
      method: 'POST',
      path: ':order_id/hold',
      summary: 'Hold an order',
      params: { order_id: longIdParam('The order id.') },
      body: HoldOrderRequest,
      response: { data: OrderView, description: '`data` is the order, now OnHold.', errors: [409] },
      topic: OrderTopic.Hold,
      request: ({ merchantId, params, body }) => ({
        merchant_id: merchantId,
        order_id: params.order_id,
        hold: body,
      }),
      key: ({ params }) => params.order_id,
    }),
    /** Release a held order: it is Draft again until its stock is reserved. */
    forward({
      name: 'release',
      method: 'POST',
      path: ':order_id/release',
      summary: 'Release a held order',
      params: { order_id: longIdParam('The order id.') },
      response: {
        data: OrderView,
        description: '`data` is the order; stock reservation is retried.',
        errors: [409],
      },
      topic: OrderTopic.Release,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, order_id: params.order_id }),
      key: ({ params }) => params.order_id,
    }),
    /** Operators: the warehouse starts picking an Approved order (Processing). */
    forward({
      name: 'pick',
      method: 'POST',
      path: ':order_id/pick',
      summary: 'Start picking an order (operators)',
      access: { roles: [ApiKeyRole.Operator] },
      params: { order_id: longIdParam('The order id.') },
      response: {
        data: OrderView,
        description: '`data` is the order, now Processing.',
        errors: [403, 409],
      },
      topic: OrderTopic.Pick,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, order_id: params.order_id }),
      key: ({ params }) => params.order_id,
    }),
    /** Operators: the order left the warehouse (Fulfilled); its stock is deducted. */
    forward({
      name: 'ship',
      method: 'POST',
      path: ':order_id/ship',
      summary: 'Ship an order (operators)',
      description:
        'The order left the warehouse with this carrier and tracking number: it is Fulfilled and its stock deducted. A tracking number of another merchant’s parcel, or of a voided label, is a 409 and the order stays Processing.',
      access: { roles: [ApiKeyRole.Operator] },
      params: { order_id: longIdParam('The order id.') },
      body: ShipOrderRequest,
      response: {
        data: OrderView,
        description: '`data` is the order, now Fulfilled.',
        errors: [403, 409],
      },
      topic: OrderTopic.Ship,
      // A number the merchant cannot ship with (another merchant's parcel, a voided label's) is a
      // 409 before the order changes: label-tracking-service, which tracks the shipment, says.
      before: ({ bus, merchantId, correlationId, body }) =>
        bus.call(
          LabelTopic.CheckShipment,
          { merchant_id: merchantId, shipment: body },
          { key: merchantId, correlationId },
        ),
      request: ({ merchantId, params, body }) => ({
        merchant_id: merchantId,
        order_id: params.order_id,
        shipment: body,
      }),
      key: ({ params }) => params.order_id,
    }),
  ];

  private withTrackingUrl(merchantId: number, order: OrderView, origin: string): OrderView {
    return { ...order, tracking_url: this.tracking.urlFor('order', merchantId, order.id, origin) };
  }
}
