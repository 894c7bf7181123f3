import { Injectable } from '@nestjs/common';
import {
  CreateWebhookRequest,
  PageQuery,
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
  WebhookTopic,
} from '@consign/contracts';
import { longIdParam, pageOf } from '../http/route-inputs';
import { RouteGroup, forward } from '../http/route-table';

/**
 * Webhook endpoints (an extension: Standard Webhooks signatures). Consign POSTs the merchant's
 * events to each endpoint subscribed to their type, signed with the endpoint's secret, at least
 * once, retrying for about three days.
 */
@Injectable()
export class WebhookRoutes implements RouteGroup {
  readonly name = 'Webhook';
  readonly tag = 'Webhooks';
  readonly prefix = '2026-05/cloud/webhook';

  readonly routes = [
    /** Register an endpoint; the answer carries its signing secret, shown this once. */
    forward({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create a webhook endpoint',
      body: CreateWebhookRequest,
      response: {
        data: WebhookEndpointSecretView,
        description: '`data` is the endpoint with its signing secret (`whsec_…`), shown only here.',
        errors: [409],
      },
      topic: WebhookTopic.Create,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, webhook: body }),
    }),
    forward({
      name: 'list',
      method: 'GET',
      path: '',
      summary: 'List webhook endpoints',
      response: {
        data: [WebhookEndpointView],
        description: '`data` is every endpoint of the merchant (without secrets), oldest first.',
      },
      topic: WebhookTopic.List,
      request: ({ merchantId }) => ({ merchant_id: merchantId }),
    }),
    forward({
      name: 'delete',
      method: 'DELETE',
      path: ':webhook_id',
      summary: 'Delete a webhook endpoint',
      params: { webhook_id: longIdParam('The endpoint id.') },
      response: {
        data: WebhookEndpointView,
        description: '`data` is the removed endpoint; its queued deliveries are dropped with it.',
      },
      topic: WebhookTopic.Delete,
      request: ({ merchantId, params }) => ({
        merchant_id: merchantId,
        webhook_id: params.webhook_id,
      }),
    }),
    /** A new secret signs from now on; the previous one also signs for 24 hours. */
    forward({
      name: 'rotate',
      method: 'POST',
      path: ':webhook_id/rotate',
      summary: 'Rotate a webhook endpoint’s signing secret',
      params: { webhook_id: longIdParam('The endpoint id.') },
      response: {
        data: WebhookEndpointSecretView,
        description: '`data` is the endpoint with its new secret, shown only here.',
      },
      topic: WebhookTopic.Rotate,
      request: ({ merchantId, params }) => ({
        merchant_id: merchantId,
        webhook_id: params.webhook_id,
      }),
    }),
    forward({
      name: 'deliveries',
      method: 'GET',
      path: ':webhook_id/deliveries',
      summary: 'List an endpoint’s deliveries and their attempts',
      params: { webhook_id: longIdParam('The endpoint id.') },
      query: PageQuery,
      response: {
        data: WebhookDeliveryPageView,
        description:
          '`data` is one page of the endpoint’s deliveries, newest first, with the total. A delivered or failed delivery is kept 30 days from its creation.',
      },
      topic: WebhookTopic.ListDeliveries,
      request: ({ merchantId, params, query }) => ({
        merchant_id: merchantId,
        webhook_id: params.webhook_id,
        ...pageOf(query),
      }),
    }),
    /** Send a delivery again now (also one that failed for good; its endpoint is enabled again). */
    forward({
      name: 'retry',
      method: 'POST',
      path: ':webhook_id/deliveries/:delivery_id/retry',
      summary: 'Re-send a webhook delivery',
      params: {
        webhook_id: longIdParam('The endpoint id.'),
        delivery_id: longIdParam('The delivery id.'),
      },
      response: {
        data: WebhookDeliveryView,
        description: '`data` is the delivery, pending again.',
      },
      topic: WebhookTopic.RetryDelivery,
      request: ({ merchantId, params }) => ({
        merchant_id: merchantId,
        webhook_id: params.webhook_id,
        delivery_id: params.delivery_id,
      }),
    }),
  ];
}
