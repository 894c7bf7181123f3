import { Injectable } from '@nestjs/common';
import {
  CreateInboundRequest,
  InboundOrderView,
  InboundPageView,
  InboundReceiptRequest,
  InboundTopic,
  PageQuery,
  RejectInboundRequest,
  ApiKeyRole,
} from '@consign/contracts';
import { LongId } from '../http/api-envelope';
import { longIdParam, pageOf } from '../http/route-inputs';
import { GatewayBus } from '../http/gateway-bus';
import { RouteGroup, route } from '../http/route-table';

/**
 * Spec endpoints 9–11, and the operations on an inbound order: the merchant cancels; operators
 * (operator keys, on their own merchant account's records) record receipts and reject deliveries.
 */
@Injectable()
export class InboundRoutes implements RouteGroup {
  readonly name = 'Inbound';
  readonly tag = 'Inbound orders';
  readonly prefix = '2025-07/cloud/inbound';

  constructor(private readonly bus: GatewayBus) {}

  readonly routes = [
    /** Announce goods on their way to a warehouse; `data` is the new inbound order id. */
    route({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create an inbound order',
      idempotent: true,
      body: CreateInboundRequest,
      response: {
        data: LongId,
        description: 'Created: `data` is the new inbound order id (status Pending).',
      },
      handle: ({ merchantId, correlationId, command, body }): Promise<number> =>
        this.bus.call(
          InboundTopic.Create,
          { merchant_id: merchantId, inbound: body },
          { key: merchantId, correlationId, command },
        ),
    }),
    /** A page of the merchant’s inbound orders, newest first. */
    route({
      name: 'list',
      method: 'GET',
      path: '',
      summary: 'List inbound orders',
      query: PageQuery,
      response: {
        data: InboundPageView,
        description:
          '`data` is one page of the merchant’s inbound orders, newest first, with the total.',
      },
      handle: ({ merchantId, correlationId, query }): Promise<InboundPageView> =>
        this.bus.call(
          InboundTopic.List,
          {
            merchant_id: merchantId,
            ...pageOf(query),
          },
          { key: merchantId, correlationId },
        ),
    }),
    route({
      name: 'get',
      method: 'GET',
      path: ':inbound_id',
      summary: 'Get an inbound order',
      params: { inbound_id: longIdParam('The inbound order id.') },
      response: { data: InboundOrderView, description: '`data` is the inbound order.' },
      handle: ({ merchantId, correlationId, params }): Promise<InboundOrderView> =>
        this.bus.call(
          InboundTopic.Get,
          { merchant_id: merchantId, inbound_id: params.inbound_id },
          { key: params.inbound_id, correlationId },
        ),
    }),
    /** Cancel a Pending inbound order. */
    route({
      name: 'cancel',
      method: 'POST',
      path: ':inbound_id/cancel',
      summary: 'Cancel an inbound order',
      idempotent: true,
      params: { inbound_id: longIdParam('The inbound order id.') },
      response: {
        data: InboundOrderView,
        description: '`data` is the cancelled inbound order.',
        errors: [409],
      },
      handle: ({ merchantId, correlationId, command, params }): Promise<InboundOrderView> =>
        this.bus.call(
          InboundTopic.Cancel,
          { merchant_id: merchantId, inbound_id: params.inbound_id },
          { key: params.inbound_id, correlationId, command },
        ),
    }),
    /** Operators: goods arrived (Partial or Completed); they go on hand at the warehouse. */
    route({
      name: 'receipt',
      method: 'POST',
      path: ':inbound_id/receipt',
      summary: 'Record an inbound receipt (operators)',
      access: { roles: [ApiKeyRole.Operator] },
      idempotent: true,
      params: { inbound_id: longIdParam('The inbound order id.') },
      body: InboundReceiptRequest,
      response: {
        data: InboundOrderView,
        description: '`data` is the inbound order with the received quantities.',
        errors: [403, 409],
      },
      handle: ({ merchantId, correlationId, command, params, body }): Promise<InboundOrderView> =>
        this.bus.call(
          InboundTopic.RecordReceipt,
          { merchant_id: merchantId, inbound_id: params.inbound_id, receipt: body },
          { key: params.inbound_id, correlationId, command },
        ),
    }),
    /** Operators: the warehouse refuses a Pending delivery (Failure). */
    route({
      name: 'reject',
      method: 'POST',
      path: ':inbound_id/reject',
      summary: 'Reject an inbound delivery (operators)',
      access: { roles: [ApiKeyRole.Operator] },
      idempotent: true,
      params: { inbound_id: longIdParam('The inbound order id.') },
      body: RejectInboundRequest,
      response: {
        data: InboundOrderView,
        description: '`data` is the inbound order, now Failure.',
        errors: [403, 409],
      },
      handle: ({ merchantId, correlationId, command, params, body }): Promise<InboundOrderView> =>
        this.bus.call(
          InboundTopic.Reject,
          { merchant_id: merchantId, inbound_id: params.inbound_id, rejection: body },
          { key: params.inbound_id, correlationId, command },
        ),
    }),
  ];
}
