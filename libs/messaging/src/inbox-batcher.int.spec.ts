import { randomUUID } from 'node:crypto';
import {
  CatalogEvent,
  EventEnvelope,
  LabelEvent,
  LabelVoidedEvent,
  ProductCreatedEvent,
} from '@consign/contracts';
import { DataSource } from 'typeorm';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { Inbox } from './inbox';
import { InboxBatcher, InboxBatchItem } from './inbox-batcher';
import { Outbox } from './outbox';
import { MessagingSchema, openMessagingSchema } from '@consign/testing';

const SCHEMA = 'batching_test';
const payload: ProductCreatedEvent = { product_id: 1, variants: [{ id: 2, sku: 'A' }] };

/** A label.label.voided.v1 envelope: a contract with validation rules. */
function aVoid(labelId = 1): EventEnvelope<LabelVoidedEvent> {
  return {
    event_id: randomUUID(),
    merchant_id: 3,
    aggregate_id: String(labelId),
    occurred_at: new Date().toISOString(),
    payload: { label_id: labelId, carrier_code: null, tracking_number: null },
  };
}

function anEvent(aggregateId = '1'): EventEnvelope<ProductCreatedEvent> {
  return {
    event_id: randomUUID(),
    merchant_id: 3,
    aggregate_id: aggregateId,
    occurred_at: new Date().toISOString(),
    payload,
  };
}

describe('batched consumption and a relay that publishes aggregates side by side', () => {
  let schema: MessagingSchema;
  let dataSource: DataSource;

  beforeAll(async () => {
    schema = await openMessagingSchema('batching-test', SCHEMA);
    dataSource = schema.dataSource;
  });

  afterAll(async () => {
    await schema.close();
  });

  beforeEach(async () => {
    await schema.truncate();
  });

  const count = async (table: string) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM "${SCHEMA}"."${table}"`))[0].n);

  describe('Inbox.consumeBatch', () => {
    it('handles each new event once, in one transaction, and skips what it has seen', async () => {
      const inbox = new Inbox(dataSource, SCHEMA);
      const seen = anEvent();
      await inbox.consume('stock', CatalogEvent.ProductCreated, seen, async () => undefined);
      const a = anEvent();
      const b = anEvent();
      const handled: string[][] = [];
      const outcomes = await inbox.consumeBatch(
        'stock',
        [a, seen, b, { ...a }],
        async (_m, fresh) => {
          handled.push(fresh.map((e) => e.event_id));
        },
      );
      expect(outcomes).toEqual(['handled', 'duplicate', 'handled', 'duplicate']);
      expect(handled).toEqual([[a.event_id, b.event_id]]);
      expect(await inbox.consumeBatch('stock', [a, b], async () => undefined)).toEqual([
        'duplicate',
        'duplicate',
      ]);
      // Another consumer has its own inbox rows.
      expect(await inbox.consumeBatch('search', [a], async () => undefined)).toEqual(['handled']);
    });

    it('records nothing of a batch whose handler fails', async () => {
      const inbox = new Inbox(dataSource, SCHEMA);
      const events = [anEvent(), anEvent()];
      await expect(
        inbox.consumeBatch('stock', events, async (manager) => {
          await manager.query(
            `INSERT INTO "${SCHEMA}"."dead_letter" (consumer, topic, envelope, error, attempts) VALUES ('x','y','{}','by the handler',0)`,
          );
          throw new Error('cannot apply');
        }),
      ).rejects.toThrow('cannot apply');
      expect(await count('inbox_message')).toBe(0);
      expect(await count('dead_letter')).toBe(0);
      expect(await inbox.consumeBatch('stock', events, async () => undefined)).toEqual([
        'handled',
        'handled',
      ]);
    });
  });

  describe('InboxBatcher', () => {
    it('coalesces events consumed at the same time into one transaction, each answered after the commit', async () => {
      const calls: InboxBatchItem<number>[][] = [];
      const batcher = new InboxBatcher<number>(
        new Inbox(dataSource, SCHEMA),
        'webhooks',
        async (_manager, items) => {
          calls.push(items);
        },
        { maxItems: 100, maxDelayMs: 5 },
      );
      const events = [aVoid(1), aVoid(2), aVoid(3)];
      const outcomes = await Promise.all([
        ...events.map((event, i) => batcher.consume(LabelEvent.Voided, event, LabelVoidedEvent, i)),
        batcher.consume(LabelEvent.Voided, events[0], LabelVoidedEvent, 9),
      ]);
      expect(outcomes).toEqual(['handled', 'handled', 'handled', 'duplicate']);
      expect(calls).toHaveLength(1);
      expect(calls[0].map((item) => [item.event.event_id, item.data])).toEqual(
        events.map((event, i) => [event.event_id, i]),
      );
      expect(await count('inbox_message')).toBe(3);
    });

    it('handles the events of a failed batch one by one: the bad one is parked, the others handled', async () => {
      const handled: number[] = [];
      const batcher = new InboxBatcher<number>(
        new Inbox(dataSource, SCHEMA, { maxAttempts: 2, retryDelayMs: 1 }),
        'webhooks',
        async (_manager, items) => {
          if (items.some((item) => item.data === 2)) throw new Error('poison');
          handled.push(...items.map((item) => item.data));
        },
        { maxItems: 100, maxDelayMs: 5 },
      );
      const outcomes = await Promise.all(
        [1, 2, 3].map((n) => batcher.consume(LabelEvent.Voided, aVoid(n), LabelVoidedEvent, n)),
      );
      expect(outcomes).toEqual(['handled', 'dead-lettered', 'handled']);
      expect(handled.sort()).toEqual([1, 3]);
      expect(await count('inbox_message')).toBe(2);
      const letters = await dataSource.query(
        `SELECT consumer, error, attempts FROM "${SCHEMA}"."dead_letter"`,
      );
      expect(letters).toEqual([{ consumer: 'webhooks', error: 'poison', attempts: 2 }]);
    });

    it('parks an event its contract refuses without holding up the batch', async () => {
      const handled: number[] = [];
      const batcher = new InboxBatcher<number>(
        new Inbox(dataSource, SCHEMA),
        'webhooks',
        async (_manager, items) => {
          handled.push(...items.map((item) => item.data));
        },
        { maxItems: 100, maxDelayMs: 5 },
      );
      const invalid = { ...aVoid(), payload: { label_id: 'x' } };
      const outcomes = await Promise.all([
        batcher.consume(LabelEvent.Voided, aVoid(), LabelVoidedEvent, 1),
        batcher.consume(LabelEvent.Voided, invalid, LabelVoidedEvent, 2),
      ]);
      expect(outcomes).toEqual(['handled', 'dead-lettered']);
      expect(handled).toEqual([1]);
      expect(await count('dead_letter')).toBe(1);
    });
  });

  describe('the outbox relay', () => {
    /** A subscriber that holds each event until released, recording when each started and ended. */
    function gatedSubscriber(broker: InProcessBroker) {
      const log: string[] = [];
      const gates = new Map<string, () => void>();
      broker.registerEventHandler(CatalogEvent.ProductCreated, async (data) => {
        const event = data as EventEnvelope<ProductCreatedEvent>;
        const name = `${event.aggregate_id}:${event.payload.product_id}`;
        log.push(`start ${name}`);
        await new Promise<void>((resolve) => gates.set(name, resolve));
        log.push(`end ${name}`);
      });
      const release = async (name: string) => {
        for (let i = 0; i < 100 && !gates.has(name); i++)
          await new Promise((resolve) => setTimeout(resolve, 10));
        gates.get(name)?.();
      };
      return { log, gates, release };
    }

    const add = (outbox: Outbox, aggregateId: string, productId: number) =>
      dataSource.transaction((manager) =>
        outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId: 3,
          aggregateId,
          payload: { ...payload, product_id: productId },
        }),
      );

    it("publishes different aggregates at the same time, and one aggregate's events in order, one after another", async () => {
      const broker = new InProcessBroker();
      const outbox = new Outbox(dataSource, new InProcessClient(broker), SCHEMA);
      const { log, gates, release } = gatedSubscriber(broker);
      await add(outbox, 'A', 1);
      await add(outbox, 'A', 2);
      await add(outbox, 'B', 1);
      const flushed = outbox.flush();
      await release('B:1');
      // B went through while A's first event is still being handled; A's second waits for it.
      expect(log).toEqual(['start A:1', 'start B:1', 'end B:1']);
      expect(gates.has('A:2')).toBe(false);
      await release('A:1');
      await release('A:2');
      await flushed;
      expect(log).toEqual(['start A:1', 'start B:1', 'end B:1', 'end A:1', 'start A:2', 'end A:2']);
      expect(await count('outbox_event')).toBe(3);
      const pending = await dataSource.query(
        `SELECT count(*) AS n FROM "${SCHEMA}"."outbox_event" WHERE published_at IS NULL`,
      );
      expect(Number(pending[0].n)).toBe(0);
    });

    it("after a failed publish, releases that aggregate's later events unpublished", async () => {
      const broker = new InProcessBroker();
      const outbox = new Outbox(dataSource, new InProcessClient(broker), SCHEMA);
      const seen: string[] = [];
      broker.registerEventHandler(CatalogEvent.ProductCreated, async (data) => {
        const event = data as EventEnvelope<ProductCreatedEvent>;
        const name = `${event.aggregate_id}:${event.payload.product_id}`;
        if (name === 'A:1') throw new Error('broker down');
        seen.push(name);
      });
      await add(outbox, 'A', 1);
      await add(outbox, 'A', 2);
      await outbox.flush();
      expect(seen).toEqual([]);
      const rows = await dataSource.query(
        `SELECT envelope->'payload'->>'product_id' AS product, published_at IS NULL AS pending,
                last_error FROM "${SCHEMA}"."outbox_event" ORDER BY id`,
      );
      expect(rows).toEqual([
        { product: '1', pending: true, last_error: 'broker down' },
        { product: '2', pending: true, last_error: 'broker down' },
      ]);
    });
  });
});
