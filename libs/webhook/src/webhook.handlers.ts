import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CommonErrorCode,
  EventDefinitionOf,
  EventEnvelope,
  EventTopic,
  InboundEvents,
  LabelEvents,
  OrderEvents,
  Reply,
  StockEvents,
  WebhookCommands,
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
  WebhookEventType,
} from '@consign/contracts';
import { CommandBus } from '@consign/bus';
import {
  CommandLedger,
  Inbox,
  InboxBatchItem,
  InboxBatcher,
  handleCommand,
} from '@consign/messaging';
import { DomainError } from '@consign/core';
import { afterCommit } from '@consign/database';
import { metrics } from '@consign/observability';
import { EntityManager } from 'typeorm';
import { webhookDatabase } from './webhook.database';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WEBHOOK_SOURCES, webhookIdOf } from './webhook-sources';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookSubscriptions } from './webhook-subscriptions';

/** The consumer name (and, in distributed mode, the consumer group) of webhook-dispatcher. */
export const WEBHOOK_CONSUMER = 'webhook-dispatcher';

/**
 * Kafka partitions whose events webhook-dispatcher handles at the same time (distributed mode), so
 * that they share inbox transactions; each partition's events stay in order.
 */
export const WEBHOOK_PARTITIONS_AT_ONCE = 8;

/** Most events queued in one transaction. */
const INGEST_BATCH = 500;
/**
 * How long an event waits for others to share its transaction when none is being written: none
 * beyond the current turn of the event loop (the events published at once are all there by then;
 * the ones arriving while a batch is written go together right after it). A wait would only slow
 * one aggregate's events, which come one after another.
 */
const INGEST_DELAY_MS = 0;

/** Tries at reading a resource from its service (200, 400, 800 ms apart). */
const READ_ATTEMPTS = 4;

/** webhook-dispatcher's bus interface: endpoint commands, and the domain events it delivers. */
@Controller()
export class WebhookHandlers {
  private readonly batcher: InboxBatcher<{ type: WebhookEventType; data: unknown }>;
  /** Wakes the dispatcher (once a batch that queued deliveries has committed). */
  private readonly nudgeDispatcher = () => this.dispatcher.nudge();

  constructor(
    private readonly endpoints: WebhookEndpointService,
    private readonly deliveries: WebhookDeliveryService,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(webhookDatabase.inbox) private readonly inbox: Inbox,
    @Inject(webhookDatabase.commands) private readonly commands: CommandLedger,
    private readonly bus: CommandBus,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly deliveryRows: WebhookDeliveryRepository,
  ) {
    this.batcher = new InboxBatcher(
      inbox,
      WEBHOOK_CONSUMER,
      (manager, items) => this.enqueue(manager, items),
      { maxItems: INGEST_BATCH, maxDelayMs: INGEST_DELAY_MS },
    );
  }

  /** Answers once every process sees the new endpoint (WebhookSubscriptions.settle). */
  @MessagePattern(WebhookCommands.Create.topic)
  async create(@Payload() payload: unknown): Promise<Reply<WebhookEndpointSecretView>> {
    const reply = await handleCommand(
      WebhookCommands.Create,
      payload,
      (c) => this.endpoints.create(c.merchant_id, c.webhook),
      this.commands,
    );
    if (reply.ok) await this.subscriptions.settle();
    return reply;
  }

  @MessagePattern(WebhookCommands.List.topic)
  list(@Payload() payload: unknown): Promise<Reply<WebhookEndpointView[]>> {
    return handleCommand(WebhookCommands.List, payload, (q) => this.endpoints.list(q.merchant_id));
  }

  @MessagePattern(WebhookCommands.Delete.topic)
  delete(@Payload() payload: unknown): Promise<Reply<WebhookEndpointView>> {
    return handleCommand(WebhookCommands.Delete, payload, (c) =>
      this.endpoints.delete(c.merchant_id, c.webhook_id),
    );
  }

  @MessagePattern(WebhookCommands.Rotate.topic)
  rotate(@Payload() payload: unknown): Promise<Reply<WebhookEndpointSecretView>> {
    return handleCommand(
      WebhookCommands.Rotate,
      payload,
      (c) => this.endpoints.rotate(c.merchant_id, c.webhook_id),
      this.commands,
    );
  }

  @MessagePattern(WebhookCommands.ListDeliveries.topic)
  listDeliveries(@Payload() payload: unknown): Promise<Reply<WebhookDeliveryPageView>> {
    return handleCommand(WebhookCommands.ListDeliveries, payload, (q) =>
      this.deliveries.list(q.merchant_id, q.webhook_id, q.page, q.size),
    );
  }

  /** Re-enables a disabled endpoint: answers once every process sees it (as create does). */
  @MessagePattern(WebhookCommands.RetryDelivery.topic)
  async retryDelivery(@Payload() payload: unknown): Promise<Reply<WebhookDeliveryView>> {
    const reply = await handleCommand(
      WebhookCommands.RetryDelivery,
      payload,
      (c) => this.deliveries.retry(c.merchant_id, c.webhook_id, c.delivery_id),
      this.commands,
    );
    this.dispatcher.nudge();
    if (reply.ok) await this.subscriptions.settle();
    return reply;
  }

  @EventPattern(OrderEvents.StatusChanged.topic)
  onOrderStatusChanged(@Payload() raw: unknown): Promise<void> {
    return this.ingest(OrderEvents.StatusChanged, raw);
  }

  @EventPattern(InboundEvents.StatusChanged.topic)
  onInboundStatusChanged(@Payload() raw: unknown): Promise<void> {
    return this.ingest(InboundEvents.StatusChanged, raw);
  }

  @EventPattern(StockEvents.LevelChanged.topic)
  onStockLevelChanged(@Payload() raw: unknown): Promise<void> {
    return this.ingest(StockEvents.LevelChanged, raw);
  }

  @EventPattern(LabelEvents.TrackingUpdated.topic)
  onLabelTrackingUpdated(@Payload() raw: unknown): Promise<void> {
    return this.ingest(LabelEvents.TrackingUpdated, raw);
  }

  @EventPattern(LabelEvents.Voided.topic)
  onLabelVoided(@Payload() raw: unknown): Promise<void> {
    return this.ingest(LabelEvents.Voided, raw);
  }

  @EventPattern(LabelEvents.OrderTrackingUpdated.topic)
  onOrderTrackingUpdated(@Payload() raw: unknown): Promise<void> {
    return this.ingest(LabelEvents.OrderTrackingUpdated, raw);
  }

  /**
   * Skips an event no enabled endpoint of its merchant subscribes to (WebhookSubscriptions: no
   * statement, no bus request). Otherwise reads the resource the event names (outside any
   * transaction: a bus request may be needed), then queues the event for each subscribed endpoint in one transaction with its inbox row (a
   * redelivered event queues nothing twice), shared with the events consumed at the same time
   * (InboxBatcher: one inbox insert and one queueing statement for them all), then wakes the
   * dispatcher. A resource that cannot be read after a few tries parks the event in the
   * dead-letter table (and DLT), never drops it.
   */
  private async ingest<K extends EventTopic>(
    definition: EventDefinitionOf<K>,
    raw: unknown,
  ): Promise<void> {
    const { topic, payload: contract } = definition;
    const source = WEBHOOK_SOURCES[topic] as
      | {
          type: WebhookEventType;
          read: (event: EventEnvelope<unknown>, bus: CommandBus) => unknown;
        }
      | undefined;
    if (!source) throw new Error(`no webhook source for ${topic}`);
    const merchantId = merchantOf(raw);
    // A malformed event goes on: the inbox refuses it (and parks it) as before.
    if (merchantId !== undefined && !(await this.subscriptions.wants(merchantId, source.type))) {
      metrics().countEvent(WEBHOOK_CONSUMER, topic, 'unsubscribed');
      return;
    }
    const resolved = await this.read(source.read, raw);
    const outcome = resolved.ok
      ? await this.batcher.consume(topic, raw, contract, { type: source.type, data: resolved.data })
      : await this.inbox.consume(
          WEBHOOK_CONSUMER,
          topic,
          raw,
          () => Promise.reject(resolved.error),
          { contract },
        );
    metrics().countEvent(WEBHOOK_CONSUMER, topic, outcome);
  }

  private async enqueue(
    manager: EntityManager,
    items: InboxBatchItem<{ type: WebhookEventType; data: unknown }>[],
  ): Promise<void> {
    const queued = await this.deliveryRows.enqueue(
      manager,
      items.map(({ event, data }) => ({
        merchantId: event.merchant_id,
        type: data.type,
        webhookId: webhookIdOf(event),
        occurredAt: event.occurred_at,
        data: data.data,
      })),
    );
    // The dispatcher sends them once the batch's transaction has committed.
    if (queued > 0 && !afterCommit(manager, this.dispatcher, this.nudgeDispatcher))
      this.nudgeDispatcher();
  }

  private async read(
    read: (event: EventEnvelope<unknown>, bus: CommandBus) => unknown,
    raw: unknown,
  ): Promise<{ ok: true; data: unknown } | { ok: false; error: DomainError }> {
    let last = '';
    for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
      try {
        return { ok: true, data: await read(raw as EventEnvelope<unknown>, this.bus) };
      } catch (error: unknown) {
        last = error instanceof Error ? error.message : String(error);
        // A malformed event fails here too: the inbox refuses it before the handler runs.
        if (!raw || typeof raw !== 'object' || !('payload' in raw)) break;
        if (attempt < READ_ATTEMPTS)
          await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (attempt - 1)));
      }
    }
    return {
      ok: false,
      error: new DomainError(CommonErrorCode.Unavailable, `could not read the resource: ${last}`),
    };
  }
}

/** The merchant id of an event envelope, when it has a sane one. */
function merchantOf(raw: unknown): number | undefined {
  if (!raw || typeof raw !== 'object' || !('merchant_id' in raw)) return undefined;
  const id = raw.merchant_id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
