import { DataSource } from 'typeorm';
import { WebhookEventType as T } from '@consign/contracts';
import { createTestDatabase, DatabaseHost, TestDatabase } from '@consign/platform';
import { QueuedEvent, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { webhookDatabase } from './webhook.database';

describe('queueing webhook deliveries', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let nextEvent = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(webhookDatabase.options);
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  const endpoint = async (merchantId: number, types: T[], status = 'enabled') => {
    const [row] = (await dataSource.query(
      `INSERT INTO "webhooks"."webhook_endpoint" (merchant_id, url, event_types, secret, status)
       VALUES ($1, 'https://example.com/hook', $2, 'whsec_x', $3) RETURNING id`,
      [merchantId, types, status],
    )) as { id: number }[];
    return Number(row.id);
  };
  const anEvent = (merchantId: number, type: T): QueuedEvent => ({
    merchantId,
    type,
    webhookId: `msg_${++nextEvent}`,
    occurredAt: new Date().toISOString(),
    data: { n: nextEvent },
  });
  const enqueue = (events: QueuedEvent[]) =>
    dataSource.transaction((manager) => WebhookDeliveryRepository.enqueue(manager, events));
  /** An endpoint's deliveries as [sequence, webhook id], in sequence order. */
  const queued = async (endpointId: number) =>
    (
      (await dataSource.query(
        `SELECT sequence, webhook_id FROM "webhooks"."webhook_delivery"
          WHERE endpoint_id = $1 ORDER BY sequence`,
        [endpointId],
      )) as { sequence: string; webhook_id: string }[]
    ).map((row) => [Number(row.sequence), row.webhook_id]);

  it('numbers each endpoint’s deliveries 1, 2, 3… in event order, across batches, for the subscribed types only', async () => {
    const orders = await endpoint(1, [T.OrderStatusChanged]);
    const both = await endpoint(1, [T.OrderStatusChanged, T.StockLevelChanged]);
    const other = await endpoint(2, [T.OrderStatusChanged]);
    const disabled = await endpoint(1, [T.OrderStatusChanged], 'disabled');
    const first = [
      anEvent(1, T.OrderStatusChanged),
      anEvent(1, T.StockLevelChanged),
      anEvent(2, T.OrderStatusChanged),
      anEvent(1, T.OrderStatusChanged),
    ];
    expect(await enqueue(first)).toBe(6);
    const second = [anEvent(1, T.StockLevelChanged), anEvent(1, T.OrderStatusChanged)];
    expect(await enqueue(second)).toBe(3);
    const id = (e: QueuedEvent) => e.webhookId;
    expect(await queued(orders)).toEqual([
      [1, id(first[0])],
      [2, id(first[3])],
      [3, id(second[1])],
    ]);
    expect(await queued(both)).toEqual([
      [1, id(first[0])],
      [2, id(first[1])],
      [3, id(first[3])],
      [4, id(second[0])],
      [5, id(second[1])],
    ]);
    expect(await queued(other)).toEqual([[1, id(first[2])]]);
    expect(await queued(disabled)).toEqual([]);
  });

  it('gives concurrent batches for one endpoint distinct, gapless numbers', async () => {
    const target = await endpoint(3, [T.OrderStatusChanged]);
    const batches = Array.from({ length: 8 }, () =>
      Array.from({ length: 25 }, () => anEvent(3, T.OrderStatusChanged)),
    );
    const counts = await Promise.all(batches.map((batch) => enqueue(batch)));
    expect(counts).toEqual(batches.map(() => 25));
    const sequences = (await queued(target)).map(([sequence]) => sequence);
    expect(sequences).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // Within each batch, the numbers follow the events' order.
    const byId = new Map((await queued(target)).map(([s, w]) => [w, s]));
    for (const batch of batches) {
      const numbers = batch.map((event) => byId.get(event.webhookId) as number);
      expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
    }
  });

  it('queues nothing for an event no endpoint takes', async () => {
    expect(await enqueue([anEvent(99, T.OrderStatusChanged)])).toBe(0);
    expect(await enqueue([])).toBe(0);
  });
});
