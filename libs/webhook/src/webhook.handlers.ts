import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateWebhookCommand,
  EventEnvelope,
  InboundEvent,
  InboundStatusChangedEvent,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  OrderEvent,
  OrderStatusChangedEvent,
  Reply,
  RetryWebhookDeliveryCommand,
  WebhookCommand,
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
  WebhookTopic,
} from '@consign/contracts';
import { Inbox, handleCommand, metrics } from '@consign/platform';
import { webhookDatabase } from './webhook.database';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WEBHOOK_SOURCES, webhookIdOf } from './webhook-sources';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';

/** The consumer name (and, in distributed mode, the consumer group) of webhook-dispatcher. */
export const WEBHOOK_CONSUMER = 'webhook-dispatcher';

/** webhook-dispatcher's bus interface: endpoint commands, and the domain events it delivers. */
@Controller()
export class WebhookHandlers {
  constructor(
    private readonly endpoints: WebhookEndpointService,
    private readonly deliveries: WebhookDeliveryService,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(webhookDatabase.inbox) private readonly inbox: Inbox,
  ) {}

  @MessagePattern(WebhookTopic.Create)
  create(@Payload() payload: unknown): Promise<Reply<WebhookEndpointSecretView>> {
    return handleCommand(CreateWebhookCommand, payload, (c) =>
      this.endpoints.create(c.merchant_id, c.webhook),
    );
  }

  @MessagePattern(WebhookTopic.List)
  list(@Payload() payload: unknown): Promise<Reply<WebhookEndpointView[]>> {
    return handleCommand(ListWebhooksQuery, payload, (q) => this.endpoints.list(q.merchant_id));
  }

  @MessagePattern(WebhookTopic.Delete)
  delete(@Payload() payload: unknown): Promise<Reply<WebhookEndpointView>> {
    return handleCommand(WebhookCommand, payload, (c) =>
      this.endpoints.delete(c.merchant_id, c.webhook_id),
    );
  }

  @MessagePattern(WebhookTopic.Rotate)
  rotate(@Payload() payload: unknown): Promise<Reply<WebhookEndpointSecretView>> {
    return handleCommand(WebhookCommand, payload, (c) =>
      this.endpoints.rotate(c.merchant_id, c.webhook_id),
    );
  }

  @MessagePattern(WebhookTopic.ListDeliveries)
  listDeliveries(@Payload() payload: unknown): Promise<Reply<WebhookDeliveryPageView>> {
    return handleCommand(ListWebhookDeliveriesQuery, payload, (q) =>
      this.deliveries.list(q.merchant_id, q.webhook_id, q.page, q.size),
    );
  }

  @MessagePattern(WebhookTopic.RetryDelivery)
  async retryDelivery(@Payload() payload: unknown): Promise<Reply<WebhookDeliveryView>> {
    const reply = await handleCommand(RetryWebhookDeliveryCommand, payload, (c) =>
      this.deliveries.retry(c.merchant_id, c.webhook_id, c.delivery_id),
    );
    this.dispatcher.nudge();
    return reply;
  }

  @EventPattern(OrderEvent.StatusChanged)
  onOrderStatusChanged(@Payload() raw: unknown): Promise<void> {
    return this.ingest(OrderEvent.StatusChanged, OrderStatusChangedEvent, raw);
  }

  @EventPattern(InboundEvent.StatusChanged)
  onInboundStatusChanged(@Payload() raw: unknown): Promise<void> {
    return this.ingest(InboundEvent.StatusChanged, InboundStatusChangedEvent, raw);
  }

  /**
   * Queues the event for each subscribed endpoint in one transaction with its inbox row (a
   * redelivered event queues nothing twice), then wakes the dispatcher.
   */
  private async ingest<K extends keyof typeof WEBHOOK_SOURCES>(
    topic: K,
    contract: new () => object,
    raw: unknown,
  ): Promise<void> {
    const source = WEBHOOK_SOURCES[topic];
    let queued = 0;
    const outcome = await this.inbox.consume(
      WEBHOOK_CONSUMER,
      topic,
      raw,
      async (manager, event) => {
        queued = await WebhookDeliveryRepository.enqueue(manager, {
          merchantId: event.merchant_id,
          type: source.type,
          webhookId: webhookIdOf(event as EventEnvelope<unknown>),
          occurredAt: event.occurred_at,
          data: (source.data as (payload: unknown) => unknown)(event.payload),
        });
      },
      { contract: contract as never },
    );
    metrics().countEvent(WEBHOOK_CONSUMER, topic, outcome);
    if (queued > 0) this.dispatcher.nudge();
  }
}
