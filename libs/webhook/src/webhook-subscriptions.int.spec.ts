import { randomUUID } from 'node:crypto';
import { DataSource, EntitySubscriberInterface } from 'typeorm';
import { WebhookEventType } from '@consign/contracts';
import { CommandBus } from '@consign/bus';
import { CommandLedger, Inbox } from '@consign/messaging';
import { DatabaseHost } from '@consign/database';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WebhookHandlers } from './webhook.handlers';
import { WebhookSubscriptions } from './webhook-subscriptions';
import { createTestDatabase, TestDatabase } from '@consign/testing';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

describe('webhook-dispatcher ingests only the events an endpoint subscribes to', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let config: WebhookConfig;
  let subscriptions: WebhookSubscriptions;
  let endpoints: WebhookEndpointService;
  let handlers: WebhookHandlers;
  let dispatcher: WebhookDispatcher;
  let merchant = 100;
  const endpointRows = new WebhookEndpointRepository();
  const deliveryRows = new WebhookDeliveryRepository();

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(webhookDatabase.options);
    config = Object.assign(new WebhookConfig(), { WEBHOOK_SUBSCRIPTION_TTL_MS: 200 });
    subscriptions = new WebhookSubscriptions(dataSource, config, endpointRows);
    const commands = new CommandLedger(dataSource, 'webhooks');
    endpoints = new WebhookEndpointService(
      dataSource,
      commands,
      config,
      subscriptions,
      endpointRows,
    );
    // Never started: queued deliveries stay queued, for the test to count.
    dispatcher = new WebhookDispatcher(dataSource, config, subscriptions, deliveryRows);
    handlers = new WebhookHandlers(
      endpoints,
      new WebhookDeliveryService(dataSource, commands, subscriptions, deliveryRows),
      dispatcher,
      new Inbox(dataSource, 'webhooks', { retryDelayMs: 1 }),
      commands,
      // Stock level events carry their resource: no bus request is made.
      undefined as unknown as CommandBus,
      subscriptions,
      deliveryRows,
    );
  });

  beforeEach(() => {
    merchant++;
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  const stockEvent = (merchantId: number) => ({
    event_id: randomUUID(),
    merchant_id: merchantId,
    aggregate_id: 'WH-US-NJ',
    occurred_at: new Date().toISOString(),
    payload: { warehouse_code: 'WH-US-NJ', levels: [{ sku_number: 'SKU-1', on_hand: 3 }] },
  });
  /** Whether the event left an inbox row, and how many deliveries it queued. */
  const ingested = async (event: { event_id: string }) => {
    const [inbox] = (await dataSource.query(
      `SELECT count(*)::int AS n FROM "webhooks"."inbox_message" WHERE event_id = $1`,
      [event.event_id],
    )) as { n: number }[];
    const [deliveries] = (await dataSource.query(
      `SELECT count(*)::int AS n FROM "webhooks"."webhook_delivery" WHERE webhook_id = $1`,
      [`msg_${event.event_id.replace(/-/g, '')}`],
    )) as { n: number }[];
    return { stored: inbox.n > 0, deliveries: deliveries.n };
  };
  const createEndpoint = (merchantId: number, types: WebhookEventType[]) =>
    endpoints.create(merchantId, { url: 'https://example.com/hook', event_types: types });

  it('stores nothing for an event no endpoint of the merchant subscribes to', async () => {
    // Another merchant's endpoint, and one of this merchant's for another type, do not count.
    await createEndpoint(merchant + 1000, [WebhookEventType.StockLevelChanged]);
    await createEndpoint(merchant, [WebhookEventType.OrderStatusChanged]);
    const event = stockEvent(merchant);
    await handlers.onStockLevelChanged(event);
    expect(await ingested(event)).toEqual({ stored: false, deliveries: 0 });
  });

  it('queues the events emitted after an endpoint’s creation was answered, in every process', async () => {
    // A second process (its own cache) that read the merchant's subscriptions just before.
    const elsewhere = new WebhookSubscriptions(dataSource, config, endpointRows);
    expect(await elsewhere.wants(merchant, WebhookEventType.StockLevelChanged)).toBe(false);
    const before = stockEvent(merchant);
    await handlers.onStockLevelChanged(before);
    expect(await ingested(before)).toEqual({ stored: false, deliveries: 0 });

    // What the create command does before it answers: commit, then wait for the caches.
    const endpoint = await createEndpoint(merchant, [WebhookEventType.StockLevelChanged]);
    await subscriptions.settle();

    expect(await elsewhere.wants(merchant, WebhookEventType.StockLevelChanged)).toBe(true);
    const after = stockEvent(merchant);
    await handlers.onStockLevelChanged(after);
    expect(await ingested(after)).toEqual({ stored: true, deliveries: 1 });
    const [queued] = (await dataSource.query(
      `SELECT endpoint_id FROM "webhooks"."webhook_delivery" WHERE webhook_id = $1`,
      [`msg_${after.event_id.replace(/-/g, '')}`],
    )) as { endpoint_id: string }[];
    expect(Number(queued.endpoint_id)).toBe(endpoint.id);
  });

  it('wakes the dispatcher once the batch that queued a delivery has committed, and only then', async () => {
    await createEndpoint(merchant, [WebhookEventType.StockLevelChanged]);
    await subscriptions.settle();
    const happened: string[] = [];
    const commits: EntitySubscriberInterface = {
      beforeTransactionCommit: () => void happened.push('commit'),
    };
    dataSource.subscribers.push(commits);
    const nudge = jest
      .spyOn(dispatcher, 'nudge')
      .mockImplementation(() => void happened.push('nudge'));
    try {
      await handlers.onStockLevelChanged(stockEvent(merchant));
      expect(happened.filter((what) => what === 'nudge')).toHaveLength(1);
      expect(happened.at(-1)).toBe('nudge');
      expect(happened).toContain('commit');
      // An event that queues nothing wakes nothing.
      await handlers.onStockLevelChanged(stockEvent(merchant + 2000));
      expect(nudge).toHaveBeenCalledTimes(1);
    } finally {
      nudge.mockRestore();
      dataSource.subscribers.splice(dataSource.subscribers.indexOf(commits), 1);
    }
  });

  it('stops ingesting for a deleted endpoint, and for a disabled one', async () => {
    const deleted = await createEndpoint(merchant, [WebhookEventType.StockLevelChanged]);
    const first = stockEvent(merchant);
    await handlers.onStockLevelChanged(first);
    expect(await ingested(first)).toEqual({ stored: true, deliveries: 1 });

    await endpoints.delete(merchant, deleted.id);
    const afterDelete = stockEvent(merchant);
    await handlers.onStockLevelChanged(afterDelete);
    expect(await ingested(afterDelete)).toEqual({ stored: false, deliveries: 0 });

    const disabled = await createEndpoint(merchant, [WebhookEventType.StockLevelChanged]);
    await dataSource.query(
      `UPDATE "webhooks"."webhook_endpoint" SET status = 'disabled' WHERE id = $1`,
      [disabled.id],
    );
    // Disabled by another process: this one notices within WEBHOOK_SUBSCRIPTION_TTL_MS.
    await subscriptions.settle();
    const afterDisable = stockEvent(merchant);
    await handlers.onStockLevelChanged(afterDisable);
    expect(await ingested(afterDisable)).toEqual({ stored: false, deliveries: 0 });
  });

  it('reads a merchant’s subscriptions once per WEBHOOK_SUBSCRIPTION_TTL_MS, however many events', async () => {
    await createEndpoint(merchant, [WebhookEventType.OrderStatusChanged]);
    const reads = jest.spyOn(dataSource, 'query');
    try {
      const cached = new WebhookSubscriptions(dataSource, config, endpointRows);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          cached.wants(merchant, WebhookEventType.StockLevelChanged),
        ),
      );
      expect(answers.every((wanted) => !wanted)).toBe(true);
      expect(await cached.wants(merchant, WebhookEventType.OrderStatusChanged)).toBe(true);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});
