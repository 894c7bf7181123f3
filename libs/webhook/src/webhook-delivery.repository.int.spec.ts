import { DataSource } from 'typeorm';
import { WebhookDeliveryStatus, WebhookEventType as T } from '@consign/contracts';
import { DatabaseHost } from '@consign/database';
import { QueuedEvent, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { webhookDatabase } from './webhook.database';
import { createTestDatabase, TestDatabase } from '@consign/testing';

const deliveries = new WebhookDeliveryRepository();

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
    dataSource.transaction((manager) => deliveries.enqueue(manager, events));
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

  it('deletes finished deliveries created before the cut-off, with their attempts, never a pending one', async () => {
    const hook = await endpoint(7, [T.OrderStatusChanged]);
    const events = [1, 2, 3, 4].map(() => anEvent(7, T.OrderStatusChanged));
    expect(await enqueue(events)).toBe(4);
    const cutOff = new Date('2026-05-01T00:00:00.000Z');
    const set = async (event: QueuedEvent, status: string, createdAt: Date) => {
      await dataSource.query(
        `UPDATE "webhooks"."webhook_delivery" SET status = $1, created_at = $2 WHERE webhook_id = $3`,
        [status, createdAt, event.webhookId],
      );
    };
    const before = new Date(cutOff.getTime() - 1000);
    await set(events[0], 'delivered', before);
    await set(events[1], 'failed', before);
    await set(events[2], 'pending', before);
    await set(events[3], 'delivered', cutOff);
    await dataSource.query(
      `INSERT INTO "webhooks"."webhook_attempt" (delivery_id, attempted_at, response_code, duration_ms)
       SELECT id, $2, 200, 12 FROM "webhooks"."webhook_delivery" WHERE webhook_id = $1`,
      [events[0].webhookId, before],
    );

    // One at a time, then the rest: a batch is bounded.
    expect(await deliveries.deleteFinished(dataSource, cutOff, 1)).toBe(1);
    expect(await deliveries.deleteFinished(dataSource, cutOff, 10)).toBe(1);
    expect(await deliveries.deleteFinished(dataSource, cutOff, 10)).toBe(0);

    expect((await queued(hook)).map(([, id]) => id)).toEqual([
      events[2].webhookId,
      events[3].webhookId,
    ]);
    const attempts = (await dataSource.query(
      `SELECT count(*)::int AS n FROM "webhooks"."webhook_attempt" a
         JOIN "webhooks"."webhook_delivery" d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
      [hook],
    )) as { n: number }[];
    expect(attempts[0].n).toBe(0);
    const orphans = (await dataSource.query(
      `SELECT count(*)::int AS n FROM "webhooks"."webhook_attempt" a
         WHERE NOT EXISTS (SELECT 1 FROM "webhooks"."webhook_delivery" d WHERE d.id = a.delivery_id)`,
    )) as { n: number }[];
    expect(orphans[0].n).toBe(0);
  });

  it('records a batch of attempts whose one delivery went with its deleted endpoint: the others’ count', async () => {
    const kept = await endpoint(8, [T.OrderStatusChanged]);
    const deleted = await endpoint(9, [T.OrderStatusChanged]);
    expect(
      await enqueue([anEvent(8, T.OrderStatusChanged), anEvent(9, T.OrderStatusChanged)]),
    ).toBe(2);
    const idOf = async (endpointId: number) =>
      Number(
        (
          (await dataSource.query(
            `SELECT id FROM "webhooks"."webhook_delivery" WHERE endpoint_id = $1`,
            [endpointId],
          )) as { id: number }[]
        )[0].id,
      );
    const attempt = (deliveryId: number) => ({
      deliveryId,
      attemptedAt: new Date(),
      status: 200,
      durationMs: 12,
      error: null,
      outcome: WebhookDeliveryStatus.Delivered,
      nextAttemptAt: null,
      firstAttemptAt: new Date(),
    });
    const batch = [attempt(await idOf(kept)), attempt(await idOf(deleted))];
    // Deleted while its attempt was in flight: the endpoint's deliveries go with it.
    await dataSource.query(`DELETE FROM "webhooks"."webhook_endpoint" WHERE id = $1`, [deleted]);
    await dataSource.transaction((manager) => deliveries.record(manager, batch));
    const [row] = (await dataSource.query(
      `SELECT d.status, d.attempts, (SELECT count(*)::int FROM "webhooks"."webhook_attempt" a
          WHERE a.delivery_id = d.id) AS logged
         FROM "webhooks"."webhook_delivery" d WHERE d.endpoint_id = $1`,
      [kept],
    )) as { status: string; attempts: number; logged: number }[];
    expect(row).toEqual({ status: 'delivered', attempts: 1, logged: 1 });
  });
});
