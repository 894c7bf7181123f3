import {
  CatalogEvent,
  EventEnvelope,
  OrderCancelledEvent,
  OrderEvent,
  ProductCreatedEvent,
} from '@consign/contracts';
import { DataSource } from 'typeorm';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { DomainError } from '@consign/core';
import { Inbox, retryDecision } from './inbox';
import { Outbox } from './outbox';
import { runInMessageScope, runWithCorrelationId, metrics } from '@consign/observability';
import { ClientProxy } from '@nestjs/microservices';
import { of } from 'rxjs';
import { MessagingSchema, openMessagingSchema } from '@consign/testing';

const SCHEMA = 'messaging_test';
const payload: ProductCreatedEvent = { product_id: 1, variants: [{ id: 2, sku: 'A' }] };

describe('retry policy of a failing event handler', () => {
  it('retries with a doubling delay until the attempts are spent', () => {
    const options = { maxAttempts: 4, retryDelayMs: 50 };
    const error = new Error('deadlock detected');
    expect([1, 2, 3, 4].map((attempt) => retryDecision(error, attempt, options))).toEqual([
      { retry: true, delayMs: 50 },
      { retry: true, delayMs: 100 },
      { retry: true, delayMs: 200 },
      { retry: false },
    ]);
  });

  it('defaults to 5 attempts from 100 ms, and never retries a DomainError', () => {
    expect(retryDecision(new Error('x'), 1)).toEqual({ retry: true, delayMs: 100 });
    expect(retryDecision(new Error('x'), 4)).toEqual({ retry: true, delayMs: 800 });
    expect(retryDecision(new Error('x'), 5)).toEqual({ retry: false });
    expect(retryDecision(new DomainError('order.invalid_transition', 'no'), 1)).toEqual({
      retry: false,
    });
  });
});

describe('outbox and inbox', () => {
  let schema: MessagingSchema;
  let dataSource: DataSource;
  let broker: InProcessBroker;
  let outbox: Outbox;

  beforeAll(async () => {
    schema = await openMessagingSchema('messaging-test', SCHEMA);
    dataSource = schema.dataSource;
  });

  afterAll(async () => {
    await schema.close();
  });

  beforeEach(async () => {
    await schema.truncate();
    broker = new InProcessBroker();
    outbox = new Outbox(dataSource, new InProcessClient(broker), SCHEMA);
  });

  /** Products 1, 2… of merchant 3 created, their events added in one transaction. */
  const addProductsCreated = (...ids: number[]): Promise<void> =>
    dataSource.transaction(async (manager) => {
      for (const aggregateId of ids)
        await outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId: 3,
          aggregateId,
          payload,
        });
    });

  const pending = async () =>
    Number(
      (
        await dataSource.query(
          `SELECT count(*) AS n FROM "${SCHEMA}"."outbox_event" WHERE published_at IS NULL`,
        )
      )[0].n,
    );

  it('publishes an event once its transaction committed, in order, exactly once per flush', async () => {
    const seen: EventEnvelope<ProductCreatedEvent>[] = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (data) => {
      seen.push(data as EventEnvelope<ProductCreatedEvent>);
    });
    await addProductsCreated(1, 2);
    await outbox.flush();
    await outbox.flush();
    expect(seen.map((e) => e.aggregate_id)).toEqual(['1', '2']);
    expect(seen[0]).toMatchObject({
      merchant_id: 3,
      payload,
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(new Date(seen[0].occurred_at).toISOString()).toBe(seen[0].occurred_at);
    expect(await pending()).toBe(0);
  });

  it('writes a batch larger than one INSERT takes (1,000 events) whole and in the order given', async () => {
    const count = 2_501;
    await dataSource.transaction((manager) =>
      outbox.addMany(
        manager,
        CatalogEvent.ProductCreated,
        Array.from({ length: count }, (_, i) => ({ merchantId: 3, aggregateId: i + 1, payload })),
      ),
    );
    const rows: { message_key: string; aggregate_id: string; headers: unknown; trace: unknown }[] =
      await dataSource.query(
        `SELECT message_key, envelope->>'aggregate_id' AS aggregate_id, headers,
           trace_context AS trace
         FROM "${SCHEMA}"."outbox_event" ORDER BY id`,
      );
    const expected = Array.from({ length: count }, (_, i) => String(i + 1));
    expect(rows.map((row) => row.message_key)).toEqual(expected);
    expect(rows.map((row) => row.aggregate_id)).toEqual(expected);
    expect(rows[count - 1]).toMatchObject({ headers: {}, trace: null });
  });

  it('stores the correlation id of the work that added an event and relays it as a header', async () => {
    const seen: unknown[] = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (_data, headers) => {
      seen.push(headers);
    });
    await runWithCorrelationId('abc-123', () =>
      dataSource.transaction((manager) =>
        outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId: 3,
          aggregateId: 1,
          payload,
        }),
      ),
    );
    // No scope, no header.
    await dataSource.transaction((manager) =>
      outbox.add(manager, CatalogEvent.ProductCreated, { merchantId: 3, aggregateId: 2, payload }),
    );
    const rows = await dataSource.query(
      `SELECT headers FROM "${SCHEMA}"."outbox_event" ORDER BY id`,
    );
    expect(rows).toEqual([{ headers: { 'x-correlation-id': 'abc-123' } }, { headers: {} }]);
    await outbox.flush();
    expect(seen).toEqual([{ 'x-correlation-id': 'abc-123' }, {}]);
  });

  it('reports its unrelayed events to the outbox_backlog gauge while it runs', async () => {
    broker.registerEventHandler(CatalogEvent.ProductCreated, async () => {
      throw new Error('broker down');
    });
    await addProductsCreated(1, 2);
    expect(await outbox.backlog()).toBe(2);
    outbox.start();
    try {
      const { body } = await metrics().exposition();
      expect(body).toContain(`outbox_backlog{service="${SCHEMA}"} 2`);
    } finally {
      await outbox.stop();
    }
    expect((await metrics().exposition()).body).not.toContain(`service="${SCHEMA}"`);
  });

  it('never publishes the event of a rolled-back transaction', async () => {
    const seen: unknown[] = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (data) => {
      seen.push(data);
    });
    await expect(
      dataSource.transaction(async (manager) => {
        await outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId: 3,
          aggregateId: 1,
          payload,
        });
        throw new Error('use case failed');
      }),
    ).rejects.toThrow('use case failed');
    await outbox.flush();
    expect(seen).toEqual([]);
  });

  it('keeps an event whose publication failed, and publishes it when the bus is back', async () => {
    let fail = true;
    const seen: unknown[] = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (data) => {
      if (fail) throw new Error('broker down');
      seen.push(data);
    });
    await dataSource.transaction((manager) =>
      outbox.add(manager, CatalogEvent.ProductCreated, { merchantId: 3, aggregateId: 1, payload }),
    );
    await outbox.flush();
    expect(await pending()).toBe(1);
    const [row] = await dataSource.query(
      `SELECT attempts, last_error, locked_until > now() AS backing_off FROM "${SCHEMA}"."outbox_event"`,
    );
    expect(row).toMatchObject({ attempts: 1, last_error: 'broker down', backing_off: true });

    fail = false;
    await dataSource.query(
      `UPDATE "${SCHEMA}"."outbox_event" SET locked_until = now() - interval '1 second'`,
    );
    await outbox.flush();
    expect(seen).toHaveLength(1);
    expect(await pending()).toBe(0);
  });

  it('handles an event once per consumer and ignores its redelivery', async () => {
    const inbox = new Inbox(dataSource, SCHEMA);
    const envelope = {
      event_id: '0b6c8f1e-7a51-4a43-9d0e-8d5b1f0b1a11',
      merchant_id: 3,
      aggregate_id: '1',
      occurred_at: new Date().toISOString(),
      payload,
    };
    let handled = 0;
    const handler = async () => {
      handled++;
    };
    expect(await inbox.consume('stock', CatalogEvent.ProductCreated, envelope, handler)).toBe(
      'handled',
    );
    expect(await inbox.consume('stock', CatalogEvent.ProductCreated, envelope, handler)).toBe(
      'duplicate',
    );
    expect(await inbox.consume('search', CatalogEvent.ProductCreated, envelope, handler)).toBe(
      'handled',
    );
    expect(handled).toBe(2);
  });

  it('retries a failing handler, rolls back its writes, then parks the event as a dead letter', async () => {
    const inbox = new Inbox(dataSource, SCHEMA, { maxAttempts: 3, retryDelayMs: 1 });
    const envelope = {
      event_id: '5d1f3a52-3c0e-4a8e-b3a4-6f2f4d9f7e21',
      merchant_id: 3,
      aggregate_id: '1',
      occurred_at: new Date().toISOString(),
      payload,
    };
    let attempts = 0;
    const outcome = await inbox.consume(
      'stock',
      CatalogEvent.ProductCreated,
      envelope,
      async (manager) => {
        attempts++;
        await manager.query(
          `INSERT INTO "${SCHEMA}"."dead_letter" (consumer, topic, envelope, error, attempts) VALUES ('x','y','{}','written by the handler',0)`,
        );
        throw new Error('cannot apply');
      },
    );
    expect(outcome).toBe('dead-lettered');
    expect(attempts).toBe(3);
    const letters = await dataSource.query(
      `SELECT consumer, error, attempts, envelope FROM "${SCHEMA}"."dead_letter"`,
    );
    expect(letters).toEqual([{ consumer: 'stock', error: 'cannot apply', attempts: 3, envelope }]);
    // The inbox row was rolled back with the handler's writes: a replay will handle it again.
    expect(
      await inbox.consume('stock', CatalogEvent.ProductCreated, envelope, async () => undefined),
    ).toBe('handled');
  });

  it('in distributed mode also relays the dead letter to <topic>.dlt through the outbox, keyed and with the x-dlt headers', async () => {
    const inbox = new Inbox(dataSource, SCHEMA, {
      maxAttempts: 2,
      retryDelayMs: 1,
      deadLetterTopics: true,
    });
    const envelope = {
      event_id: '0b7c3f1e-7a43-4f53-9d86-1f3f0c7b2a10',
      merchant_id: 3,
      aggregate_id: '42',
      occurred_at: new Date().toISOString(),
      payload,
    };
    const outcome = await inbox.consume('stock', CatalogEvent.ProductCreated, envelope, () =>
      Promise.reject(new Error('still broken')),
    );
    expect(outcome).toBe('dead-lettered');
    const rows = await dataSource.query(
      `SELECT topic, message_key, envelope, headers FROM "${SCHEMA}"."outbox_event"`,
    );
    expect(rows).toEqual([
      {
        topic: 'catalog.product.created.v1.dlt',
        message_key: '42',
        envelope,
        headers: {
          'x-dlt-consumer': 'stock',
          'x-dlt-error': 'still broken',
          'x-dlt-attempts': '2',
          'x-dlt-failed-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        },
      },
    ]);
    const seen: unknown[] = [];
    broker.registerEventHandler('catalog.product.created.v1.dlt', async (data) => {
      seen.push(data);
    });
    await outbox.flush();
    expect(seen).toEqual([envelope]);
    expect(await pending()).toBe(0);
    // standalone (no broker): the table only
    await new Inbox(dataSource, SCHEMA).consume('stock', CatalogEvent.ProductCreated, 'junk', () =>
      Promise.resolve(),
    );
    expect(await pending()).toBe(0);
    expect(
      (await dataSource.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."dead_letter"`))[0].n,
    ).toBe(2);
  });

  it('keeps the bytes of a message its consumer could not parse, and publishes them unchanged to the DLT', async () => {
    const inbox = new Inbox(dataSource, SCHEMA, { deadLetterTopics: true });
    // What Nest hands the handler for an empty or unparsable value; the bytes are in the scope.
    const raw = Buffer.from([0x00, 0xff, 0x7b, 0x22]);
    const consumed = { key: 'order-7', headers: { 'x-correlation-id': 'c-1' }, value: raw };
    const outcome = await runInMessageScope({ correlationId: 'c-1', consumed }, () =>
      inbox.consume('stock', OrderEvent.Shipped, null, async () => undefined),
    );
    expect(outcome).toBe('dead-lettered');
    const [letter] = await dataSource.query(
      `SELECT error, raw_value FROM "${SCHEMA}"."dead_letter"`,
    );
    expect(letter).toEqual({ error: 'not an event envelope', raw_value: raw });
    const sent: { topic: string; message: { key: string; value: unknown; headers: object } }[] = [];
    const capture = {
      emit: (topic: string, message: { key: string; value: unknown; headers: object }) => {
        sent.push({ topic, message });
        return of(undefined);
      },
    } as unknown as ClientProxy;
    await new Outbox(dataSource, capture, SCHEMA).flush();
    expect(sent).toEqual([
      {
        topic: 'order.shipped.v1.dlt',
        message: {
          key: 'order-7',
          value: raw,
          headers: expect.objectContaining({
            'x-correlation-id': 'c-1',
            'x-dlt-error': 'not an event envelope',
          }),
        },
      },
    ]);
  });

  it('parks a message that is not an event envelope', async () => {
    const inbox = new Inbox(dataSource, SCHEMA);
    expect(
      await inbox.consume(
        'stock',
        CatalogEvent.ProductCreated,
        { nope: true },
        async () => undefined,
      ),
    ).toBe('dead-lettered');
  });

  it('parks an event whose payload breaks its contract, without calling the handler', async () => {
    const inbox = new Inbox(dataSource, SCHEMA);
    let called = false;
    const outcome = await inbox.consume(
      'orders',
      OrderEvent.Cancelled,
      {
        event_id: '7c2b8a1e-2f1d-4c7e-9a55-0b1f6e1c2d33',
        merchant_id: 3,
        aggregate_id: '9',
        occurred_at: new Date().toISOString(),
        payload: { order_id: 'nine' },
      },
      async () => {
        called = true;
      },
      { contract: OrderCancelledEvent },
    );
    expect(outcome).toBe('dead-lettered');
    expect(called).toBe(false);
    const [letter] = await dataSource.query(
      `SELECT error, attempts FROM "${SCHEMA}"."dead_letter" WHERE consumer = 'orders'`,
    );
    expect(letter).toEqual({ error: expect.stringContaining('order_id'), attempts: 1 });
  });

  it('hands the handler the validated payload', async () => {
    const inbox = new Inbox(dataSource, SCHEMA);
    const seen: unknown[] = [];
    await inbox.consume(
      'orders',
      OrderEvent.Cancelled,
      {
        event_id: '1f0e9d8c-7b6a-4543-8210-fedcba987654',
        merchant_id: 3,
        aggregate_id: '9',
        occurred_at: new Date().toISOString(),
        payload: { order_id: 9, extra: 'stripped' },
      },
      async (_manager, event) => {
        seen.push(event.payload);
      },
      { contract: OrderCancelledEvent },
    );
    expect(seen).toEqual([expect.any(OrderCancelledEvent)]);
    expect(seen[0]).toEqual({ order_id: 9 });
  });

  it('parks an event its use case refuses (DomainError) at once: a retry cannot help', async () => {
    const inbox = new Inbox(dataSource, SCHEMA, { maxAttempts: 5, retryDelayMs: 1 });
    let attempts = 0;
    const outcome = await inbox.consume(
      'orders',
      OrderEvent.Cancelled,
      {
        event_id: '2a3b4c5d-6e7f-4a1b-8c9d-0e1f2a3b4c5d',
        merchant_id: 3,
        aggregate_id: '9',
        occurred_at: new Date().toISOString(),
        payload: { order_id: 9 },
      },
      async () => {
        attempts++;
        throw new DomainError('order.invalid_transition', 'Order 9 is Fulfilled');
      },
    );
    expect(outcome).toBe('dead-lettered');
    expect(attempts).toBe(1);
  });
});
