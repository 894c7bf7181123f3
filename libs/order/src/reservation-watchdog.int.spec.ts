import { DataSource } from 'typeorm';
import {
  CreateOrderRequest,
  EventEnvelope,
  OrderEvent,
  OrderStatus,
  RatingTopic,
  success,
} from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { CommandLedger, Outbox } from '@consign/messaging';
import { DatabaseHost } from '@consign/database';
import { loadConfig, loadConfigOf } from '@consign/config';
import { OrderRepository } from './order.repository';
import { orderDatabase } from './order.database';
import { OrderConfig } from './order.config';
import { OrderLifecycle } from './order-lifecycle.service';
import { OrderService } from './order.service';
import { ReservationWatchdog, noAnswerReason } from './reservation-watchdog';
import { TestDatabase, createTestDatabase, eventually } from '@consign/testing';
import { RatingClient } from '@consign/rating-client';
import { valueOf } from '@consign/testing/fixtures';

const WAREHOUSES = [{ code: 'WH-US-NJ', name: 'New Jersey', country_code: 'US' }];

function anOrder(): CreateOrderRequest {
  return valueOf(CreateOrderRequest, {
    shipping_address: {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: '+1 555 0100',
      address1: '1 Main Street',
      district: 'Manhattan',
      zip_code: '10001',
      city: 'New York',
      province: 'NY',
      country: 'United States',
      country_code: 'US',
    },
    service: { service_code: 'UPS-GROUND', inco_term: 'DAP', warehouse_code: 'WH-US-NJ' },
    sku_items: [{ sku_number: '1001', quantity: 2, price: 10 }],
  });
}

describe('ReservationWatchdog', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let outbox: Outbox;
  let orders: OrderService;
  let lifecycle: OrderLifecycle;
  let requests: EventEnvelope<{ order_id: number; attempt: number }>[];
  let changes: EventEnvelope<{ order_id: number; previous_status: string; status: string }>[];
  let merchant = 500;

  /** A watchdog that finds an order due once `age` made its request an hour old. */
  const watchdog = (retries: number) =>
    new ReservationWatchdog(
      dataSource,
      outbox,
      loadConfigOf(OrderConfig, {
        ORDER_RESERVATION_TIMEOUT_MS: '600000',
        ORDER_RESERVATION_RETRIES: String(retries),
      }),
      new OrderRepository(),
    );
  const age = (orderId: number) =>
    dataSource.query(
      `UPDATE "orders"."order" SET reservation_requested_at = now() - interval '1 hour' WHERE id = $1`,
      [orderId],
    );
  const newOrder = async () => {
    const id = await orders.create(merchant, anOrder());
    await outbox.flush();
    requests.splice(0);
    return id;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(orderDatabase.options);
    const broker = new InProcessBroker();
    broker.registerRequestHandler(RatingTopic.ListWarehouses, async () => success(WAREHOUSES));
    broker.registerRequestHandler(RatingTopic.ListServices, async () =>
      success([{ service_code: 'UPS-GROUND', carrier: 'UPS', inco_terms: ['DAP'] }]),
    );
    requests = [];
    changes = [];
    broker.registerEventHandler(OrderEvent.StatusChanged, async (event) => {
      changes.push(
        event as EventEnvelope<{ order_id: number; previous_status: string; status: string }>,
      );
    });
    broker.registerEventHandler(OrderEvent.ReservationRequested, async (event) => {
      requests.push(event as EventEnvelope<{ order_id: number; attempt: number }>);
    });
    outbox = new Outbox(dataSource, new InProcessClient(broker), 'orders');
    const config = loadConfig({ BUS_TIMEOUT_MS: '1000' });
    const commands = new CommandLedger(dataSource, 'orders');
    orders = new OrderService(
      dataSource,
      outbox,
      commands,
      new RatingClient(new CommandBus(new InProcessClient(broker), config), config),
      new OrderRepository(),
    );
    lifecycle = new OrderLifecycle(dataSource, outbox, commands, new OrderRepository());
  });

  beforeEach(() => {
    merchant++;
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('leaves an order alone while its answer may still come', async () => {
    const id = await newOrder();
    expect(await watchdog(2).check()).toEqual({ retried: 0, held: 0 });
    expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Draft);
  });

  it('asks again with a new attempt, then holds the order with the reason', async () => {
    const id = await newOrder();
    const dog = watchdog(2);
    for (const attempt of [2, 3]) {
      await age(id);
      expect(await dog.check()).toMatchObject({ retried: 1 });
      await outbox.flush();
      expect(requests.splice(0).map((r) => r.payload)).toEqual([
        expect.objectContaining({
          order_id: id,
          attempt,
          lines: [{ sku_number: '1001', quantity: 2 }],
        }),
      ]);
    }
    await age(id);
    changes.splice(0);
    expect(await dog.check()).toMatchObject({ held: 1 });
    expect(await orders.get(merchant, id)).toMatchObject({
      status: OrderStatus.OnHold,
      hold_reason: noAnswerReason(3),
    });
    // The hold is announced like every change (webhook subscribers of order.status_changed).
    await outbox.flush();
    expect(changes.splice(0).map((c) => c.payload)).toEqual([
      expect.objectContaining({
        order_id: id,
        previous_status: OrderStatus.Draft,
        status: OrderStatus.OnHold,
      }),
    ]);
    // A late answer to an old attempt changes nothing; a release asks afresh, retries reset.
    await lifecycle.apply(merchant, id, (m) =>
      lifecycle.reserved(m, merchant, {
        order_id: id,
        attempt: 2,
        warehouse_code: 'WH-US-NJ',
        lines: [],
      }),
    );
    expect((await orders.get(merchant, id)).status).toBe(OrderStatus.OnHold);
    await lifecycle.apply(merchant, id, (m) => lifecycle.release(m, merchant, id));
    await age(id);
    expect(await dog.check()).toMatchObject({ retried: 1, held: 0 });
  });

  it('approves on the answer to the attempt it asked for', async () => {
    const id = await newOrder();
    await age(id);
    await watchdog(1).check();
    await lifecycle.apply(merchant, id, (m) =>
      lifecycle.reserved(m, merchant, {
        order_id: id,
        attempt: 2,
        warehouse_code: 'WH-US-NJ',
        lines: [],
      }),
    );
    expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Approved);
    await age(id);
    expect(await watchdog(1).check()).toEqual({ retried: 0, held: 0 });
  });

  it.each([
    ['shares its database with other replicas', false, { most: Infinity, least: 10 }],
    ['is the only writer of its database (the embedded one)', true, { most: 3, least: 2 }],
  ])(
    'started, a watchdog that %s asks again once an order’s time is up',
    async (_title, exclusive, claimed) => {
      const repository = new OrderRepository();
      const claims = jest.spyOn(repository, 'claimUnanswered');
      const timeoutMs = 1_500;
      const dog = new ReservationWatchdog(
        dataSource,
        outbox,
        loadConfigOf(OrderConfig, {
          ORDER_RESERVATION_TIMEOUT_MS: String(timeoutMs),
          ORDER_RESERVATION_CHECK_MS: '100',
          ORDER_RESERVATION_RETRIES: '5',
        }),
        repository,
        { exclusive },
      );
      // The orders earlier tests left Draft would fall due in the window too: set aside.
      await dataSource.query(
        `UPDATE "orders"."order" SET status = $1, hold_reason = 'set aside by a test' WHERE status = $2`,
        [OrderStatus.OnHold, OrderStatus.Draft],
      );
      // Before the insert: the order's time starts at its row's timestamp, which is no earlier.
      const createdAt = Date.now();
      const id = await newOrder();
      dog.onApplicationBootstrap();
      try {
        const mine = await eventually(
          async () => {
            await outbox.flush();
            return requests.filter((request) => request.payload.order_id === id);
          },
          (asked) => asked.length > 0,
          { timeoutMs: 10_000, intervalMs: 20 },
        );
        const askedAfter = Date.now() - createdAt;
        expect(mine[0].payload.attempt).toBe(2);
        expect(askedAfter).toBeGreaterThanOrEqual(timeoutMs);
        expect(askedAfter).toBeLessThan(timeoutMs + 1_000);
        // Polling every 100 ms, or one look at start and one when the time is up (a third if the
        // first look came late).
        expect(claims.mock.calls.length).toBeGreaterThanOrEqual(claimed.least);
        expect(claims.mock.calls.length).toBeLessThanOrEqual(claimed.most);
      } finally {
        await dog.beforeApplicationShutdown();
      }
    },
  );
});
