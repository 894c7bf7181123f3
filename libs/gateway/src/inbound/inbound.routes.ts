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
import { RouteGroup, forward } from '../http/route-table';

/**
 * Spec endpoints 9–11, and the operations on an inbound order: the merchant cancels; operators
 * (operator keys, on their own merchant account's records) record receipts and reject deliveries.
 */
@Injectable()
export class InboundRoutes implements RouteGroup {
  readonly name = 'Inbound';
  readonly tag = 'Inbound orders';
  readonly prefix = '2025-07/cloud/inbound';

  readonly routes = [
    /** Announce goods on their way to a warehouse; `data` is the new inbound order id. */
    forward({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create an inbound order',
      body: CreateInboundRequest,
      response: {
        data: LongId,
        description: 'Created: `data` is the new inbound order id (status Pending).',
      },
      topic: InboundTopic.Create,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, inbound: body }),
    }),
    /** A page of the merchant’s inbound orders, newest first. */
    forward({
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
      topic: InboundTopic.List,
      request: ({ merchantId, query }) => ({
        merchant_id: merchantId,
        ...pageOf(query),
      }),
    }),
    forward({
      name: 'get',
      method: 'GET',
      path: ':inbound_id',
      summary: 'Get an inbound order',
      params: { inbound_id: longIdParam('The inbound order id.') },
      response: { data: InboundOrderView, description: '`data` is the inbound order.' },
      topic: InboundTopic.Get,
      request: ({ merchantId, params }) => ({
        merchant_id: merchantId,
        inbound_id: params.inbound_id,
      }),
      key: ({ params }) => params.inbound_id,
    }),
    /** Cancel a Pending inbound order. */
    forward({
      name: 'cancel',
      method: 'POST',
      path: ':inbound_id/cancel',
      summary: 'Cancel an inbound order',
      params: { inbound_id: longIdParam('The inbound order id.') },
      response: {
        data: InboundOrderView,
        description: '`data` is the cancelled inbound order.',
        errors: [409],
      },
      topic: InboundTopic.Cancel,
      request: ({ merchantId, params }) => ({
        merchant_id: merchantId,
        inbound_id: params.inbound_id,
      }),
      key: ({ params }) => params.inbound_id,
    }),
    /** Operators: goods arrived (Partial or Completed); they go on hand at the warehouse. */
    forward({
      name: 'receipt',
      method: 'POST',
      path: ':inbound_id/receipt',
      summary: 'Record an inbound receipt (operators)',
      access: { roles: [ApiKeyRole.Operator] },
      params: { inbound_id: longIdParam('The inbound order id.') },
      body: InboundReceiptRequest,
      response: {
        data: InboundOrderView,
        description: '`data` is the inbound order with the received quantities.',
        errors: [403, 409],
      },
      topic: InboundTopic.RecordReceipt,
      request: ({ merchantId, params, body }) => ({
        merchant_id: merchantId,
        inbound_id: params.inbound_id,
        receipt: body,
      }),
      key: ({ params }) => params.inbound_id,
    }),
    /** Operators: the warehouse refuses a Pending delivery (Failure). */
    forward({
      name: 'reject',
      method: 'POST',
      path: ':inbound_id/reject',
      summary: 'Reject an inbound delivery (operators)',
      access: { roles: [ApiKeyRole.Operator] },
      params: { inbound_id: longIdParam('The inbound order id.') },
      body: RejectInboundRequest,
      response: {
        data: InboundOrderView,
        description: '`data` is the inbound order, now Failure.',
        errors: [403, 409],
      },
      topic: InboundTopic.Reject,
      request: ({ merchantId, params, body }) => ({
        merchant_id: merchantId,
        inbound_id: params.inbound_id,
        rejection: body,
      }),
      key: ({ params }) => params.inbound_id,
    }),
  ];
}
