import { Module } from '@nestjs/common';
import { loadConfigOf } from '@consign/config';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WebhookHandlers } from './webhook.handlers';
import { WebhookSubscriptions } from './webhook-subscriptions';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

/**
 * webhook-dispatcher: merchants' webhook endpoints, and the delivery of the services' domain
 * events to them (Standard Webhooks signatures, at least once, from a durable queue).
 */
@Module({
  imports: [webhookDatabase.module],
  controllers: [WebhookHandlers],
  providers: [
    { provide: WebhookConfig, useFactory: () => loadConfigOf(WebhookConfig) },
    WebhookEndpointService,
    WebhookDeliveryService,
    WebhookDispatcher,
    WebhookSubscriptions,
    WebhookDeliveryRepository,
    WebhookEndpointRepository,
  ],
  exports: [WebhookDispatcher],
})
export class WebhookModule {}
