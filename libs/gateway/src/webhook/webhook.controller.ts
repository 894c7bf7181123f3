import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Body, Delete, Get, Param, Post, Query } from '@nestjs/common';
import {
  CreateWebhookRequest,
  PAGE_LIMITS,
  PageQuery,
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
  WebhookTopic,
} from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import { ApiEnvelope, LongId } from '../http/api-envelope';
import { contract, idParam } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';
import type { CommandStamp } from '@consign/bus';
import { Command, Idempotent } from '../idempotency/idempotency.hooks';

/**
 * Webhook endpoints (an extension: Standard Webhooks signatures). Consign POSTs the merchant's
 * events to each endpoint subscribed to their type, signed with the endpoint's secret, at least
 * once, retrying for about three days.
 */
@ApiTags('Webhooks')
@ApiController('2026-05/cloud/webhook')
export class WebhookController {
  constructor(private readonly bus: GatewayBus) {}

  /** Register an endpoint; the answer carries its signing secret, shown this once. */
  @Post()
  @ApiOperation({ summary: 'Create a webhook endpoint' })
  @Idempotent()
  @ApiEnvelope(WebhookEndpointSecretView, {
    description: '`data` is the endpoint with its signing secret (`whsec_…`), shown only here.',
    errors: [409],
  })
  create(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Body(contract(CreateWebhookRequest)) webhook: CreateWebhookRequest,
  ): Promise<WebhookEndpointSecretView> {
    return this.bus.call(
      WebhookTopic.Create,
      { merchant_id: merchantId, webhook },
      { key: merchantId, correlationId, command },
    );
  }

  @Get()
  @ApiOperation({ summary: 'List webhook endpoints' })
  @ApiEnvelope([WebhookEndpointView], {
    description: '`data` is every endpoint of the merchant (without secrets), oldest first.',
  })
  list(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
  ): Promise<WebhookEndpointView[]> {
    return this.bus.call(
      WebhookTopic.List,
      { merchant_id: merchantId },
      { key: merchantId, correlationId },
    );
  }

  @Delete(':webhook_id')
  @ApiOperation({ summary: 'Delete a webhook endpoint' })
  @ApiParam({ name: 'webhook_id', description: 'The endpoint id.', schema: LongId })
  @ApiEnvelope(WebhookEndpointView, {
    description: '`data` is the removed endpoint; its queued deliveries are dropped with it.',
  })
  delete(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('webhook_id', idParam('webhook_id')) webhookId: number,
  ): Promise<WebhookEndpointView> {
    return this.bus.call(
      WebhookTopic.Delete,
      { merchant_id: merchantId, webhook_id: webhookId },
      { key: merchantId, correlationId },
    );
  }

  /** A new secret signs from now on; the previous one also signs for 24 hours. */
  @Post(':webhook_id/rotate')
  @ApiOperation({ summary: 'Rotate a webhook endpoint’s signing secret' })
  @Idempotent()
  @ApiParam({ name: 'webhook_id', description: 'The endpoint id.', schema: LongId })
  @ApiEnvelope(WebhookEndpointSecretView, {
    description: '`data` is the endpoint with its new secret, shown only here.',
  })
  rotate(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('webhook_id', idParam('webhook_id')) webhookId: number,
  ): Promise<WebhookEndpointSecretView> {
    return this.bus.call(
      WebhookTopic.Rotate,
      { merchant_id: merchantId, webhook_id: webhookId },
      { key: merchantId, correlationId, command },
    );
  }

  @Get(':webhook_id/deliveries')
  @ApiOperation({ summary: 'List an endpoint’s deliveries and their attempts' })
  @ApiParam({ name: 'webhook_id', description: 'The endpoint id.', schema: LongId })
  @ApiEnvelope(WebhookDeliveryPageView, {
    description:
      '`data` is one page of the endpoint’s deliveries, newest first, with the total. A delivered or failed delivery is kept 30 days from its creation.',
  })
  deliveries(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('webhook_id', idParam('webhook_id')) webhookId: number,
    @Query(contract(PageQuery)) query: PageQuery,
  ): Promise<WebhookDeliveryPageView> {
    return this.bus.call(
      WebhookTopic.ListDeliveries,
      {
        merchant_id: merchantId,
        webhook_id: webhookId,
        page: query.page ?? PAGE_LIMITS.default_page,
        size: query.size ?? PAGE_LIMITS.default_size,
      },
      { key: merchantId, correlationId },
    );
  }

  /** Send a delivery again now (also one that failed for good; its endpoint is enabled again). */
  @Post(':webhook_id/deliveries/:delivery_id/retry')
  @ApiOperation({ summary: 'Re-send a webhook delivery' })
  @Idempotent()
  @ApiParam({ name: 'webhook_id', description: 'The endpoint id.', schema: LongId })
  @ApiParam({ name: 'delivery_id', description: 'The delivery id.', schema: LongId })
  @ApiEnvelope(WebhookDeliveryView, { description: '`data` is the delivery, pending again.' })
  retry(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('webhook_id', idParam('webhook_id')) webhookId: number,
    @Command() command: CommandStamp,
    @Param('delivery_id', idParam('delivery_id')) deliveryId: number,
  ): Promise<WebhookDeliveryView> {
    return this.bus.call(
      WebhookTopic.RetryDelivery,
      { merchant_id: merchantId, webhook_id: webhookId, delivery_id: deliveryId },
      { key: merchantId, correlationId, command },
    );
  }
}
