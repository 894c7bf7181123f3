import {
  CommonErrorCode,
  CreateOrderRequest,
  EventEnvelope,
  OrderErrorCode,
  OrderEvent,
  OrderStatus,
  RatingTopic,
  ReservationFailure,
  WarehouseEvent,
  success,
} from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { Inbox } from '@consign/messaging';
import { loadConfig } from '@consign/config';
import { orderDatabase } from './order.database';
import { OrderRepository } from './order.repository';
import { OrderHandlers } from './order.handlers';
import { OrderLifecycle } from './order-lifecycle.service';
import { OrderService } from './order.service';
import { OrderActor } from './order.transitions';
import { useServiceTestBed } from '@consign/testing';
import { anEventEnvelope, validOrderAddress, valueOf } from '@consign/testing/fixtures';
import { RatingClient } from '@consign/rating-client';

const WAREHOUSES = [
  { code: 'WH-NL-AMS', name: 'Amsterdam', country_code: 'NL' },
  { code: 'WH-US-NJ', name: 'New Jersey', country_code: 'US' },
];
const SERVICES = [{ service_code: 'UPS-GROUND', carrier: 'UPS', inco_terms: ['DAP', 'DDP'] }];

function orderRequest(plain: unknown): CreateOrderRequest {
  return valueOf(CreateOrderRequest, plain);
}

function address(overrides: Record<string, string> = {}) {
  return { ...validOrderAddress(), ...overrides };
}

/** Only the required fields. */
function minimalOrder() {
  return {
    shipping_address: address(),
    sku_items: [{ sku_number: '1001', quantity: 1, price: 10 }],
  };
}

/** Every field of the spec's order set. */
function anOrder(overrides: Record<string, unknown> = {}) {
  return {
    shipping_address: address(),
    billing_address: address({ first_name: 'Charles', last_name: 'Babbage' }),
    reference: 'PO-1001',
    currency: 'EUR',
    totals_include_tax: true,
    shipping_cost: 4.95,
    service: { service_code: 'UPS-GROUND', inco_term: 'DAP', warehouse_code: 'WH-US-NJ' },
    sku_items: [
      { sku_number: '1001', quantity: 2, price: 19.99, discount: 1.5, tax: 0.05 },
      { sku_number: '1002', quantity: 1, price: 19.99, discount: 1.5, tax: 0.05 },
    ],
    ...overrides,
  };
}

describe('OrderService and OrderLifecycle', () => {
  const bed = useServiceTestBed(orderDatabase.options);
  let orders: OrderService;
  let lifecycle: OrderLifecycle;
  let events: (EventEnvelope<Record<string, unknown>> & { topic: string })[];
  let merchant = 100;

  const build = (env: Record<string, string> = {}) => {
    const { dataSource, broker, outbox, commands } = bed;
    const config = loadConfig({ BUS_TIMEOUT_MS: '1000', ...env });
    const reference = new RatingClient(new CommandBus(new InProcessClient(broker), config), config);
    return new OrderService(dataSource, outbox, commands, reference, new OrderRepository());
  };

  let statusChanges: Record<string, unknown>[];

  /** Publishes what the outbox holds and returns the events published. */
  const published = async () => {
    await bed.outbox.flush();
    return events.splice(0);
  };

  beforeAll(() => {
    const { dataSource, broker, outbox, commands } = bed;
    broker.registerRequestHandler(RatingTopic.ListWarehouses, async () => success(WAREHOUSES));
    broker.registerRequestHandler(RatingTopic.ListServices, async () => success(SERVICES));
    events = [];
    statusChanges = [];
    for (const topic of Object.values(OrderEvent))
      broker.registerEventHandler(topic, async (event) => {
        const envelope = event as EventEnvelope<Record<string, unknown>>;
        // Status announcements (for webhooks) have a test of their own.
        if (topic === OrderEvent.StatusChanged) statusChanges.push(envelope.payload);
        else events.push({ topic, ...envelope });
      });
    orders = build();
    lifecycle = new OrderLifecycle(dataSource, outbox, commands, new OrderRepository());
  });

  beforeEach(async () => {
    merchant++;
    await published();
  });

  describe('create and read', () => {
    it('round-trips every field of the order; a new order is Draft', async () => {
      const plain = anOrder();
      const id = await orders.create(merchant, orderRequest(plain));
      const view = await orders.get(merchant, id);
      expect(view).toEqual({
        id,
        shipping_address: plain.shipping_address,
        billing_address: plain.billing_address,
        reference: 'PO-1001',
        currency: 'EUR',
        totals_include_tax: true,
        issue_date: null,
        status: OrderStatus.Draft,
        hold_reason: null,
        shipping_cost: 4.95,
        sku_items: plain.sku_items.map((item) => ({ ...item })),
        created_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        service: { service_code: 'UPS-GROUND', inco_term: 'DAP', warehouse_code: 'WH-US-NJ' },
      });
    });

    it('applies the defaults: USD, totals without tax, billing = shipping address', async () => {
      const plain = minimalOrder();
      const id = await orders.create(merchant, orderRequest(plain));
      expect(await orders.get(merchant, id)).toMatchObject({
        currency: 'USD',
        totals_include_tax: false,
        billing_address: plain.shipping_address,
        shipping_address: plain.shipping_address,
        reference: null,
        shipping_cost: null,
        service: null,
        sku_items: [{ sku_number: '1001', quantity: 1, price: 10, discount: null, tax: null }],
      });
    });

    it('keeps Number(12,2) values exact', async () => {
      const plain = minimalOrder();
      plain.sku_items = [{ sku_number: 'X', quantity: 3, price: 9999999999.99 }];
      const id = await orders.create(merchant, orderRequest({ ...plain, shipping_cost: 0.1 }));
      const view = await orders.get(merchant, id);
      expect(view.sku_items[0].price).toBe(9999999999.99);
      expect(view.shipping_cost).toBe(0.1);
    });

    it('asks for the reservation with order.created.v1 (attempt 1, lines, warehouse)', async () => {
      const id = await orders.create(merchant, orderRequest(anOrder()));
      expect(await published()).toEqual([
        expect.objectContaining({
          topic: OrderEvent.Created,
          merchant_id: merchant,
          aggregate_id: String(id),
          payload: {
            order_id: id,
            attempt: 1,
            warehouse_code: 'WH-US-NJ',
            lines: [
              { sku_number: '1001', quantity: 2 },
              { sku_number: '1002', quantity: 1 },
            ],
          },
        }),
      ]);
    });

    it('announces every status change with the order as the API returns it after the change', async () => {
      statusChanges.splice(0);
      const id = await orders.create(merchant, orderRequest(anOrder()));
      await lifecycle.apply(merchant, id, (m) => lifecycle.hold(m, merchant, id, 'Wait'));
      await lifecycle.apply(merchant, id, (m) =>
        lifecycle.cancel(m, merchant, id, OrderActor.Merchant),
      );
      await published();
      const changes = statusChanges.splice(0);
      expect(changes.map((c) => [c.previous_status, c.status])).toEqual([
        [null, OrderStatus.Draft],
        [OrderStatus.Draft, OrderStatus.OnHold],
        [OrderStatus.OnHold, OrderStatus.Cancelled],
      ]);
      expect(changes[2].order).toEqual(await orders.get(merchant, id));
    });

    it("answers Order not found for an unknown id and for another merchant's order", async () => {
      const id = await orders.create(merchant, orderRequest(minimalOrder()));
      for (const [m, o] of [
        [merchant + 1000, id],
        [merchant, id + 100000],
      ])
        await expect(orders.get(m, o)).rejects.toMatchObject({
          code: OrderErrorCode.OrderNotFound,
          message: 'Order not found.',
        });
    });
  });

  describe('reference data', () => {
    it('refuses a warehouse, service or inco term rating-service does not know, creating nothing', async () => {
      const before = (await orders.list(merchant, 1, 20)).total;
      const plain = anOrder({
        service: { warehouse_code: 'WH-XX', service_code: 'UPS-GROUND', inco_term: 'EXW' },
      });
      await expect(orders.create(merchant, orderRequest(plain))).rejects.toMatchObject({
        code: OrderErrorCode.UnknownReference,
        message: expect.stringMatching(/service\.warehouse_code WH-XX.*service\.inco_term EXW/),
      });
      expect((await orders.list(merchant, 1, 20)).total).toBe(before);
      expect(await published()).toEqual([]);
    });

    it('fails with Unavailable (503) when rating-service does not answer; never accepts unchecked', async () => {
      const lonely = new InProcessBroker();
      const config = loadConfig({ BUS_TIMEOUT_MS: '1000' });
      const unchecked = new OrderService(
        bed.dataSource,
        bed.outbox,
        bed.commands,
        new RatingClient(new CommandBus(new InProcessClient(lonely), config), config),
        new OrderRepository(),
      );
      await expect(unchecked.create(merchant, orderRequest(anOrder()))).rejects.toMatchObject({
        code: CommonErrorCode.Unavailable,
      });
      // An order without a service has no code to check.
      await expect(unchecked.create(merchant, orderRequest(minimalOrder()))).resolves.toEqual(
        expect.any(Number),
      );
    });
  });

  describe('list', () => {
    it('pages newest first from page 1, with the merchant total, and only its own orders', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(await orders.create(merchant, orderRequest(minimalOrder())));
      await orders.create(merchant + 5000, orderRequest(minimalOrder()));
      const first = await orders.list(merchant, 1, 2);
      expect(first).toMatchObject({ page: 1, size: 2, total: 5 });
      expect(first.list.map((o) => o.id)).toEqual([ids[4], ids[3]]);
      expect((await orders.list(merchant, 3, 2)).list.map((o) => o.id)).toEqual([ids[0]]);
      expect(await orders.list(merchant, 4, 2)).toEqual({ page: 4, size: 2, total: 5, list: [] });
      expect(first.list[0]).toEqual(await orders.get(merchant, ids[4]));
    });

    it('returns every order exactly once across the pages, whatever the page size', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 7; i++)
        ids.push(await orders.create(merchant, orderRequest(minimalOrder())));
      const newestFirst = [...ids].reverse();
      for (const size of [1, 2, 3, 4, 7, 8]) {
        const seen: number[] = [];
        for (let page = 1; page <= Math.ceil(7 / size) + 1; page++) {
          const result = await orders.list(merchant, page, size);
          expect(result.total).toBe(7);
          seen.push(...result.list.map((o) => o.id));
        }
        expect(seen).toEqual(newestFirst);
      }
    });

    it('reads pages through the (merchant_id, id) index and the total from its counter, never a scan', async () => {
      const big = merchant;
      await bed.dataSource.query(
        `INSERT INTO orders."order" (merchant_id, status, currency, totals_include_tax,
           shipping_address, billing_address, has_service)
         SELECT CASE WHEN g % 10 = 0 THEN $1 ELSE $1 + 1 + g % 50 END, 'Draft', 'USD', false,
           '{}'::jsonb, '{}'::jsonb, false
         FROM generate_series(1, 20000) g`,
        [big],
      );
      await bed.dataSource.query(
        `INSERT INTO orders.order_count (merchant_id, total) VALUES ($1, 2000)`,
        [big],
      );
      await bed.dataSource.query('VACUUM ANALYZE orders."order"');
      const statements: [string, unknown[]][] = [];
      const recording = {
        query: (text: string, params?: unknown[]) => {
          statements.push([text, params ?? []]);
          return bed.dataSource.query(text, params);
        },
      };
      expect(await new OrderRepository().count(recording, big)).toBe(2000);
      for (const page of [1, 50, 100])
        expect(await new OrderRepository().page(recording, big, page, 20, 2000)).toHaveLength(20);
      // The counter (statement 0) is one row per merchant; the pages must use the index.
      expect(statements[0][0]).toMatch(/FROM "orders"."order_count" WHERE merchant_id = \$1/);
      for (const [text, params] of statements.slice(1)) {
        const plan = (await bed.dataSource.query(`EXPLAIN ${text}`, params))
          .map((row: Record<string, string>) => row['QUERY PLAN'])
          .join('\n');
        expect(plan).toContain('ix_order_merchant_id_id');
        expect(plan).not.toMatch(/Seq Scan/);
      }
    });
  });

  describe('lifecycle', () => {
    const create = async () => orders.create(merchant, orderRequest(anOrder()));
    const status = async (id: number) => (await orders.get(merchant, id)).status;
    const apply = (id: number, change: Parameters<OrderLifecycle['apply']>[2]) =>
      lifecycle.apply(merchant, id, change);
    const reserved = (id: number, attempt = 1, warehouse_code = 'WH-US-NJ') =>
      apply(id, (m) =>
        lifecycle.reserved(m, merchant, { order_id: id, attempt, warehouse_code, lines: [] }),
      );
    const failed = (id: number, attempt = 1) =>
      apply(id, (m) =>
        lifecycle.reservationFailed(m, merchant, {
          order_id: id,
          attempt,
          reason: ReservationFailure.InsufficientStock,
          message: 'Insufficient stock at WH-US-NJ for 1001 (2 needed, 0 available).',
          sku_numbers: ['1001'],
        }),
      );

    it('Draft → Approved when stock is reserved, with the issue date set', async () => {
      const id = await create();
      const view = await reserved(id);
      expect(view).toMatchObject({ status: OrderStatus.Approved, hold_reason: null });
      expect(view.issue_date).toEqual(expect.stringMatching(/Z$/));
    });

    it('Draft → OnHold with the reason; release asks again (attempt 2) and then Approved', async () => {
      const id = await create();
      await published();
      expect(await failed(id)).toMatchObject({
        status: OrderStatus.OnHold,
        hold_reason: 'Insufficient stock at WH-US-NJ for 1001 (2 needed, 0 available).',
      });
      const released = await apply(id, (m) => lifecycle.release(m, merchant, id));
      expect(released).toMatchObject({ status: OrderStatus.Draft, hold_reason: null });
      expect(await published()).toEqual([
        expect.objectContaining({
          topic: OrderEvent.ReservationRequested,
          payload: {
            order_id: id,
            attempt: 2,
            warehouse_code: 'WH-US-NJ',
            lines: [
              { sku_number: '1001', quantity: 2 },
              { sku_number: '1002', quantity: 1 },
            ],
          },
        }),
      ]);
      // A late answer to attempt 1 changes nothing; the answer to attempt 2 does.
      expect((await reserved(id, 1)).status).toBe(OrderStatus.Draft);
      expect((await failed(id, 1)).status).toBe(OrderStatus.Draft);
      expect((await reserved(id, 2)).status).toBe(OrderStatus.Approved);
      // A duplicate of it, too, changes nothing.
      expect((await failed(id, 2)).status).toBe(OrderStatus.Approved);
    });

    it('the merchant holds and releases an approved order', async () => {
      const id = await create();
      await reserved(id);
      expect(
        await apply(id, (m) => lifecycle.hold(m, merchant, id, 'Customer called')),
      ).toMatchObject({ status: OrderStatus.OnHold, hold_reason: 'Customer called' });
      expect((await apply(id, (m) => lifecycle.release(m, merchant, id))).status).toBe(
        OrderStatus.Draft,
      );
    });

    it('Approved → Processing → Fulfilled, announcing the shipment', async () => {
      const id = await create();
      await reserved(id);
      await published();
      expect((await apply(id, (m) => lifecycle.pick(m, merchant, id))).status).toBe(
        OrderStatus.Processing,
      );
      const shipment = { carrier: 'UPS', tracking_number: '1Z999', packages: 2 };
      expect((await apply(id, (m) => lifecycle.ship(m, merchant, id, shipment))).status).toBe(
        OrderStatus.Fulfilled,
      );
      expect(await published()).toEqual([
        expect.objectContaining({
          topic: OrderEvent.Shipped,
          payload: { order_id: id, ...shipment },
        }),
      ]);
      const [row] = await bed.dataSource.query(
        `SELECT carrier, tracking_number, packages, shipped_at IS NOT NULL AS shipped FROM orders."order" WHERE id = $1`,
        [id],
      );
      expect(row).toEqual({ carrier: 'UPS', tracking_number: '1Z999', packages: 2, shipped: true });
    });

    it('the merchant cancels a Draft, OnHold or Approved order; catalog hears of it', async () => {
      const draft = await create();
      const held = await create();
      await failed(held);
      const approved = await create();
      await reserved(approved);
      await published();
      for (const id of [draft, held, approved])
        expect(
          (await apply(id, (m) => lifecycle.cancel(m, merchant, id, OrderActor.Merchant))).status,
        ).toBe(OrderStatus.Cancelled);
      expect((await published()).map((e) => [e.topic, e.payload])).toEqual(
        [draft, held, approved].map((id) => [OrderEvent.Cancelled, { order_id: id }]),
      );
    });

    it('refuses a forbidden change with 409 naming the current state, and changes nothing', async () => {
      const id = await create();
      await reserved(id);
      await apply(id, (m) => lifecycle.pick(m, merchant, id));
      await published();
      await expect(
        apply(id, (m) => lifecycle.cancel(m, merchant, id, OrderActor.Merchant)),
      ).rejects.toMatchObject({
        code: OrderErrorCode.InvalidTransition,
        message: `Order ${id} is Processing: only the warehouse can make it Cancelled.`,
      });
      await expect(apply(id, (m) => lifecycle.release(m, merchant, id))).rejects.toMatchObject({
        code: OrderErrorCode.InvalidTransition,
        message: `Order ${id} is Processing: it cannot become Draft.`,
      });
      expect(await status(id)).toBe(OrderStatus.Processing);
      expect(await published()).toEqual([]);
      // The warehouse may cancel what it is processing.
      expect(
        (await apply(id, (m) => lifecycle.cancel(m, merchant, id, OrderActor.Warehouse))).status,
      ).toBe(OrderStatus.Cancelled);
    });

    it("cannot touch another merchant's order", async () => {
      const id = await create();
      await expect(
        lifecycle.apply(merchant + 1, id, (m) => lifecycle.pick(m, merchant + 1, id)),
      ).rejects.toMatchObject({ code: OrderErrorCode.OrderNotFound });
    });
  });

  describe('events: the stock saga and warehouse adapters', () => {
    let handlers: OrderHandlers;
    const envelope = (payload: Record<string, unknown>) =>
      anEventEnvelope(merchant, String(payload.order_id), payload);

    beforeAll(() => {
      handlers = new OrderHandlers(
        orders,
        lifecycle,
        new Inbox(bed.dataSource, 'orders', { retryDelayMs: 1 }),
        bed.commands,
      );
    });

    it('runs the same use cases as HTTP, once per event however often it is delivered', async () => {
      const id = await orders.create(merchant, orderRequest(anOrder()));
      const reserved = envelope({
        order_id: id,
        attempt: 1,
        warehouse_code: 'WH-US-NJ',
        lines: [],
      });
      await handlers.onReserved(reserved);
      await handlers.onPickingStarted(envelope({ order_id: id }));
      const shipped = envelope({
        order_id: id,
        carrier: 'DHL',
        tracking_number: 'JD01',
        packages: 1,
      });
      await handlers.onShipped(shipped);
      await handlers.onShipped(shipped);
      await handlers.onReserved(reserved);
      expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Fulfilled);
      expect((await published()).map((e) => e.topic)).toEqual([
        OrderEvent.Created,
        OrderEvent.Shipped,
      ]);
    });

    it('completes a Fulfilled order once all its shipments are delivered, once', async () => {
      const id = await orders.create(merchant, orderRequest(anOrder()));
      await handlers.onReserved(
        envelope({ order_id: id, attempt: 1, warehouse_code: 'WH-US-NJ', lines: [] }),
      );
      await handlers.onPickingStarted(envelope({ order_id: id }));
      await handlers.onShipped(
        envelope({ order_id: id, carrier: 'DHL', tracking_number: 'JD03', packages: 1 }),
      );
      const delivered = (all_delivered: boolean, shipment_id: number) =>
        envelope({
          order_id: id,
          shipment_id,
          tracking_courier: 'DHL',
          tracking_number: 'JD03',
          delivered_time: '2026-05-04T10:00:00.000Z',
          all_delivered,
        });
      await handlers.onShipmentDelivered(delivered(false, 1));
      expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Fulfilled);
      await handlers.onShipmentDelivered(delivered(true, 2));
      expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Completed);
      // Announced again (a later delivery checkpoint): still Completed, nothing parked.
      const parked = async () =>
        Number((await bed.dataSource.query(`SELECT count(*) AS n FROM orders.dead_letter`))[0].n);
      const before = await parked();
      await handlers.onShipmentDelivered(delivered(true, 2));
      expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Completed);
      expect(await parked()).toBe(before);
    });

    it('leaves an order that is not Fulfilled as it is when told it was delivered', async () => {
      const id = await orders.create(merchant, orderRequest(anOrder()));
      await handlers.onShipmentDelivered(
        envelope({
          order_id: id,
          shipment_id: 9,
          tracking_courier: 'DHL',
          tracking_number: 'JD04',
          delivered_time: '2026-05-04T10:00:00.000Z',
          all_delivered: true,
        }),
      );
      expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Draft);
    });

    it('parks an event the state machine refuses, or one that breaks its contract', async () => {
      const id = await orders.create(merchant, orderRequest(anOrder()));
      await handlers.onShipped(
        envelope({ order_id: id, carrier: 'DHL', tracking_number: 'JD02', packages: 1 }),
      );
      await handlers.onWarehouseCancelled(envelope({ order_id: 'x' }));
      const letters = await bed.dataSource.query(
        `SELECT topic, error FROM orders.dead_letter ORDER BY id DESC LIMIT 2`,
      );
      expect(letters).toEqual([
        { topic: WarehouseEvent.OrderCancelled, error: expect.stringContaining('order_id') },
        {
          topic: WarehouseEvent.OrderShipped,
          error: `Order ${id} is Draft: it cannot become Fulfilled.`,
        },
      ]);
      expect((await orders.get(merchant, id)).status).toBe(OrderStatus.Draft);
    });
  });
});
