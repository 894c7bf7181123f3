import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  CommonErrorCode,
  OrderErrorCode,
  OrderStatus,
  OrderTopic,
  RatingTopic,
  Reply,
  success,
} from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { CommandLedger, Inbox, Outbox } from '@consign/messaging';
import { DatabaseHost } from '@consign/database';
import { IncomingCommand, metrics, runInMessageScope } from '@consign/observability';
import { loadConfig } from '@consign/config';
import { OrderRepository } from './order.repository';
import { orderDatabase } from './order.database';
import { OrderHandlers } from './order.handlers';
import { OrderLifecycle } from './order-lifecycle.service';
import { OrderService } from './order.service';
import { createTestDatabase, TestDatabase } from '@consign/testing';
import { validOrderAddress } from '@consign/testing/fixtures';
import { RatingClient } from '@consign/rating-client';

const WAREHOUSES = [{ code: 'WH-US-NJ', name: 'New Jersey', country_code: 'US' }];

function anOrder(reference: string) {
  return {
    shipping_address: validOrderAddress(),
    reference,
    sku_items: [{ sku_number: '1001', quantity: 2, price: 19.99 }],
  };
}

/**
 * Each command takes effect once (issue 13, must show 1 and 2): order-service's handlers, given the
 * same command again (a Kafka redelivery after a crash, or a client's retry after a 504), change
 * nothing and answer the recorded reply; a command past its deadline is not carried out.
 */
describe('order-service commands, delivered more than once', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let handlers: OrderHandlers;
  let now = Date.parse('2026-05-01T08:00:00.000Z');
  let merchant = 500;

  const command = (topic: string, deadline = now + 10_000): IncomingCommand => ({
    id: randomUUID(),
    topic,
    deadline,
  });
  const as = <T>(sent: IncomingCommand, handle: () => Promise<T>): Promise<T> =>
    runInMessageScope({ correlationId: 'test', command: sent }, handle);
  const orderCount = async () =>
    Number(
      (
        await dataSource.query(`SELECT count(*) AS n FROM orders."order" WHERE merchant_id = $1`, [
          merchant,
        ])
      )[0].n,
    );
  const records = async (id: string) =>
    dataSource.query(`SELECT state FROM orders.command_record WHERE command_id = $1`, [id]);

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(orderDatabase.options);
    const broker = new InProcessBroker();
    broker.registerRequestHandler(RatingTopic.ListWarehouses, async () => success(WAREHOUSES));
    broker.registerRequestHandler(RatingTopic.ListServices, async () => success([]));
    const outbox = new Outbox(dataSource, new InProcessClient(broker), 'orders');
    const commands = new CommandLedger(dataSource, 'orders', { now: () => now });
    const config = loadConfig({ BUS_TIMEOUT_MS: '1000' });
    const reference = new RatingClient(new CommandBus(new InProcessClient(broker), config), config);
    handlers = new OrderHandlers(
      new OrderService(dataSource, outbox, commands, reference, new OrderRepository()),
      new OrderLifecycle(dataSource, outbox, commands, new OrderRepository()),
      new Inbox(dataSource, 'orders'),
      commands,
    );
  });

  beforeEach(() => {
    merchant++;
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('creates one order however often the create is delivered, and answers its id each time', async () => {
    const create = command(OrderTopic.Create);
    const payload = { merchant_id: merchant, order: anOrder('PO-1') };
    const first = await as(create, () => handlers.create(payload));
    expect(first).toEqual({ ok: true, data: expect.any(Number) });
    const again = await as(create, () => handlers.create(payload));
    // Concurrent deliveries too: one commits, the other meets its record and is rolled back.
    const concurrent = command(OrderTopic.Create);
    const other = { merchant_id: merchant, order: anOrder('PO-2') };
    const both = await Promise.all([
      as(concurrent, () => handlers.create(other)),
      as(concurrent, () => handlers.create(other)),
    ]);
    // A repeat is answered from the record, and says so.
    expect(again).toEqual({ ...first, replayed: true });
    const [{ replayed: _a, ...one }, { replayed: _b, ...two }] = both;
    expect(two).toEqual(one);
    expect(both.filter((reply) => reply.replayed === true)).toHaveLength(1);
    expect(one.ok).toBe(true);
    expect(await orderCount()).toBe(2);
    expect(await records(create.id)).toEqual([{ state: 'completed' }]);
    const counted = (await metrics().commandsHandled.get()).values.filter(
      (v) => v.labels.topic === OrderTopic.Create,
    );
    expect(counted.find((v) => v.labels.outcome === 'repeated')?.value).toBeGreaterThanOrEqual(2);
  });

  it('answers a repeated change with the recorded order, not with the 409 a second cancel would get', async () => {
    const created = await as(command(OrderTopic.Create), () =>
      handlers.create({ merchant_id: merchant, order: anOrder('PO-3') }),
    );
    if (!created.ok) throw new Error(created.error.message);
    const cancel = command(OrderTopic.Cancel);
    const payload = { merchant_id: merchant, order_id: created.data };
    const first = await as(cancel, () => handlers.cancel(payload));
    expect(first).toMatchObject({ ok: true, data: { status: OrderStatus.Cancelled } });
    expect(await as(cancel, () => handlers.cancel(payload))).toEqual({ ...first, replayed: true });
    // Another command (a new request) to cancel it again is refused by the state machine.
    const again = command(OrderTopic.Cancel);
    const anew: Reply<unknown> = await as(again, () => handlers.cancel(payload));
    expect(anew).toEqual({
      ok: false,
      error: { code: 'order.invalid_transition', message: expect.any(String) },
    });
    // That refusal is its command's answer: a retry of it gets it again, from the record.
    expect(await records(again.id)).toEqual([{ state: 'completed' }]);
    expect(await as(again, () => handlers.cancel(payload))).toEqual({ ...anew, replayed: true });
  });

  it('keeps no answer to a command refused as invalid (400) or failed (5xx): a retry runs again', async () => {
    const create = command(OrderTopic.Create);
    const unknownWarehouse = {
      ...anOrder('PO-8'),
      service: { warehouse_code: 'WH-XX', service_code: 'UPS-GROUND', inco_term: 'EXW' },
    };
    const invalid = await as(create, () =>
      handlers.create({ merchant_id: merchant, order: unknownWarehouse }),
    );
    expect(invalid).toMatchObject({ ok: false, error: { code: OrderErrorCode.UnknownReference } });
    expect(await records(create.id)).toEqual([]);
    const corrected = await as(create, () =>
      handlers.create({ merchant_id: merchant, order: anOrder('PO-8') }),
    );
    expect(corrected).toEqual({ ok: true, data: expect.any(Number) });
  });

  it('refuses the same command id with another request, and changes nothing', async () => {
    const create = command(OrderTopic.Create);
    await as(create, () => handlers.create({ merchant_id: merchant, order: anOrder('PO-4') }));
    const reused = await as(create, () =>
      handlers.create({ merchant_id: merchant, order: anOrder('PO-5') }),
    );
    expect(reused).toMatchObject({ ok: false, error: { code: CommonErrorCode.CommandReused } });
    expect(await orderCount()).toBe(1);
  });

  it('does not start a command past its deadline, records it expired, and carries out a retry of it once', async () => {
    const late = command(OrderTopic.Create, now - 1);
    const payload = { merchant_id: merchant, order: anOrder('PO-6') };
    const refused = await as(late, () => handlers.create(payload));
    expect(refused).toMatchObject({ ok: false, error: { code: CommonErrorCode.CommandExpired } });
    expect(await orderCount()).toBe(0);
    expect(await records(late.id)).toEqual([{ state: 'expired' }]);
    // The client retries with the same key: the same command id, a fresh deadline.
    const retry = { ...late, deadline: now + 10_000 };
    const done = await as(retry, () => handlers.create(payload));
    expect(done).toMatchObject({ ok: true });
    // The late delivery arriving once more, after the retry committed, answers the retry's reply.
    expect(await as(late, () => handlers.create(payload))).toEqual({ ...done, replayed: true });
    expect(await orderCount()).toBe(1);
    expect(await records(late.id)).toEqual([{ state: 'completed' }]);
  });

  it('does not commit a command whose deadline passes while it runs', async () => {
    const create = command(OrderTopic.Create, now + 5);
    const payload = { merchant_id: merchant, order: anOrder('PO-7') };
    const saved = now;
    // The clock moves past the deadline once the command has started, before it commits.
    const reply = await as(create, () => {
      const pending = handlers.create(payload);
      now += 10;
      return pending;
    });
    now = saved;
    expect(reply).toMatchObject({ ok: false, error: { code: CommonErrorCode.CommandExpired } });
    expect(await orderCount()).toBe(0);
  });

  it('forgets command ids after the retention', async () => {
    const create = command(OrderTopic.Create);
    await as(create, () => handlers.create({ merchant_id: merchant, order: anOrder('PO-8') }));
    const ledger = new CommandLedger(dataSource, 'orders', { now: () => now + 25 * 3600_000 });
    expect(await ledger.sweep()).toBeGreaterThanOrEqual(1);
    expect(await records(create.id)).toEqual([]);
  });
});
