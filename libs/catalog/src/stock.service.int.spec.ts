import { DataSource } from 'typeorm';
import {
  CreateProductRequest,
  EventEnvelope,
  InboundEvent,
  InventoryQuery,
  OrderStatus,
  OrderTopic,
  ReservationFailure,
  StockEvent,
  VariantUnit,
  WeightUnit,
  success,
} from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { CommandLedger, Inbox, Outbox } from '@consign/messaging';
import { DatabaseHost } from '@consign/database';
import { loadConfigOf } from '@consign/config';
import { CatalogConfig } from './catalog.config';
import { StockReconciler } from './stock-reconciler';
import { catalogDatabase } from './catalog.database';
import { ProductService } from './product.service';
import { StockHandlers } from './stock.handlers';
import { StockReservationService } from './stock-reservation.service';
import { StockService } from './stock.service';
import { anEventEnvelope, createTestDatabase, TestDatabase } from '@consign/testing';
import { ProductRepository } from './product.repository';
import { StockRepository } from './stock.repository';
import { StockReservationRepository } from './stock-reservation.repository';

interface Published {
  topic: string;
  merchant_id: number;
  aggregate_id: string;
  payload: Record<string, unknown>;
}

describe('stock: receipts, reservations, releases, deductions and the inventory', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let outbox: Outbox;
  let products: ProductService;
  let stock: StockService;
  let handlers: StockHandlers;
  let reconciler: StockReconciler;
  /** What order-service answers about the orders' states, for the reconciliation. */
  let orderStates: Map<number, OrderStatus>;
  let answers: Published[];
  let levels: Published[];
  let merchant = 300;
  let nextOrder = 1000;
  /** The variants of the current merchant, by sku code. */
  let variant: Record<string, number>;

  const envelope = <P>(payload: P, aggregateId: number) =>
    anEventEnvelope(merchant, String(aggregateId), payload);
  const published = async () => {
    await outbox.flush();
    return answers.splice(0);
  };
  const receive = (warehouse: string, lines: [string, number][]) =>
    handlers.onInboundReceived(
      envelope(
        {
          inbound_id: 1,
          warehouse_code: warehouse,
          lines: lines.map(([sku, quantity]) => ({
            sku_number: sku,
            variant_id: variant[sku],
            quantity,
          })),
        },
        1,
      ),
    );
  const order = async (
    lines: [string, number][],
    warehouse: string | null = 'WH-NL-AMS',
    orderId = nextOrder++,
    attempt = 1,
  ) => {
    await handlers.onOrderCreated(
      envelope(
        {
          order_id: orderId,
          attempt,
          warehouse_code: warehouse,
          lines: lines.map(([sku_number, quantity]) => ({ sku_number, quantity })),
        },
        orderId,
      ),
    );
    return orderId;
  };
  const level = async (sku: string, warehouse = 'WH-NL-AMS') => {
    const page = await stock.inventory(
      merchant,
      Object.assign(new InventoryQuery(), { sku, warehouse_code: warehouse, page: 1, size: 20 }),
    );
    const { on_hand, reserved, available } = page.list[0] ?? {
      on_hand: 0,
      reserved: 0,
      available: 0,
    };
    return { on_hand, reserved, available };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(catalogDatabase.options);
    const broker = new InProcessBroker();
    answers = [];
    levels = [];
    for (const topic of Object.values(StockEvent))
      broker.registerEventHandler(topic, async (event) => {
        const published = { topic, ...(event as EventEnvelope<Record<string, unknown>>) };
        // Level announcements (for webhooks) have a test of their own.
        if (topic === StockEvent.LevelChanged) levels.push(published);
        else answers.push(published);
      });
    outbox = new Outbox(dataSource, new InProcessClient(broker), 'catalog');
    const productRows = new ProductRepository();
    const stockRows = new StockRepository();
    const reservationRows = new StockReservationRepository();
    products = new ProductService(
      dataSource,
      outbox,
      new CommandLedger(dataSource, 'catalog'),
      productRows,
    );
    stock = new StockService(dataSource, outbox, productRows, stockRows);
    const reservations = new StockReservationService(
      outbox,
      productRows,
      stockRows,
      reservationRows,
    );
    orderStates = new Map();
    const orderService = {
      request: async (topic: string, query: { order_ids: number[] }) => {
        expect(topic).toBe(OrderTopic.States);
        return success(
          query.order_ids
            .filter((id) => orderStates.has(id))
            .map((id) => ({ order_id: id, status: orderStates.get(id)! })),
        );
      },
    } as unknown as CommandBus;
    reconciler = new StockReconciler(
      dataSource,
      reservations,
      orderService,
      loadConfigOf(CatalogConfig, { STOCK_RECONCILE_SETTLE_MS: '0' }),
      stockRows,
      reservationRows,
    );
    handlers = new StockHandlers(
      stock,
      reservations,
      reconciler,
      new Inbox(dataSource, 'catalog', { retryDelayMs: 5 }),
    );
  });

  beforeEach(async () => {
    merchant++;
    const id = await products.create(
      merchant,
      Object.assign(new CreateProductRequest(), {
        title: 'Tee',
        currency: 'EUR',
        variants: ['TEE-S', 'TEE-M', 'TEE-L'].map((sku) => ({
          sku,
          title: sku,
          retail_price: 10,
          weight_unit: WeightUnit.Kg,
          unit: VariantUnit.Pcs,
        })),
      }),
    );
    variant = Object.fromEntries(
      (await products.get(merchant, id)).variants!.map((v) => [v.sku, v.id]),
    );
    await published();
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  describe('receipts and the inventory', () => {
    it('puts received units on hand, once per event however often it is delivered', async () => {
      await receive('WH-NL-AMS', [
        ['TEE-S', 10],
        ['TEE-M', 3],
      ]);
      const again = envelope(
        {
          inbound_id: 2,
          warehouse_code: 'WH-NL-AMS',
          lines: [{ sku_number: 'TEE-S', variant_id: variant['TEE-S'], quantity: 5 }],
        },
        2,
      );
      await handlers.onInboundReceived(again);
      await handlers.onInboundReceived(again);
      expect(await level('TEE-S')).toEqual({ on_hand: 15, reserved: 0, available: 15 });
      expect(await level('TEE-M')).toEqual({ on_hand: 3, reserved: 0, available: 3 });
    });

    it('lists stock per variant and warehouse, filtered by sku (id or code) and warehouse', async () => {
      await receive('WH-NL-AMS', [['TEE-S', 4]]);
      await receive('WH-DE-BER', [
        ['TEE-S', 2],
        ['TEE-L', 7],
      ]);
      const query = (q: Partial<InventoryQuery>) =>
        stock.inventory(merchant, Object.assign(new InventoryQuery(), { page: 1, size: 20, ...q }));
      const all = await query({});
      expect(all.total).toBe(3);
      expect(all.list.map((s) => [s.sku, s.warehouse_code, s.on_hand])).toEqual([
        ['TEE-S', 'WH-DE-BER', 2],
        ['TEE-S', 'WH-NL-AMS', 4],
        ['TEE-L', 'WH-DE-BER', 7],
      ]);
      expect(all.list[0]).toEqual({
        sku_number: String(variant['TEE-S']),
        sku: 'TEE-S',
        warehouse_code: 'WH-DE-BER',
        on_hand: 2,
        reserved: 0,
        available: 2,
      });
      expect((await query({ sku: String(variant['TEE-S']) })).total).toBe(2);
      expect((await query({ sku: 'TEE-S', warehouse_code: 'WH-NL-AMS' })).list).toHaveLength(1);
      expect((await query({ warehouse_code: 'WH-DE-BER', size: 1, page: 2 })).list[0].sku).toBe(
        'TEE-L',
      );
      expect(await query({ sku: 'NOPE' })).toEqual({ page: 1, size: 20, total: 0, list: [] });
      merchant++;
      expect((await query({})).total).toBe(0);
    });

    it("parks a receipt naming another merchant's variant instead of creating stock", async () => {
      const foreign = envelope(
        {
          inbound_id: 3,
          warehouse_code: 'WH-NL-AMS',
          lines: [{ sku_number: 'X', variant_id: 999999, quantity: 5 }],
        },
        3,
      );
      await handlers.onInboundReceived(foreign);
      const [letter] = await dataSource.query(
        `SELECT error FROM catalog.dead_letter WHERE topic = $1 ORDER BY id DESC LIMIT 1`,
        [InboundEvent.Received],
      );
      expect(letter.error).toContain('999999');
    });
  });

  describe('reservations', () => {
    it('reserves every line at the warehouse and answers with the resolved lines', async () => {
      await receive('WH-NL-AMS', [
        ['TEE-S', 10],
        ['TEE-M', 3],
      ]);
      const id = await order([
        [String(variant['TEE-S']), 2],
        ['TEE-M', 3],
        ['TEE-S', 1],
      ]);
      expect(await published()).toEqual([
        {
          topic: StockEvent.Reserved,
          event_id: expect.any(String),
          occurred_at: expect.any(String),
          merchant_id: merchant,
          aggregate_id: String(id),
          payload: {
            order_id: id,
            attempt: 1,
            warehouse_code: 'WH-NL-AMS',
            lines: [
              { sku_number: String(variant['TEE-S']), variant_id: variant['TEE-S'], quantity: 2 },
              { sku_number: 'TEE-M', variant_id: variant['TEE-M'], quantity: 3 },
              { sku_number: 'TEE-S', variant_id: variant['TEE-S'], quantity: 1 },
            ],
          },
        },
      ]);
      expect(await level('TEE-S')).toEqual({ on_hand: 10, reserved: 3, available: 7 });
      expect(await level('TEE-M')).toEqual({ on_hand: 3, reserved: 3, available: 0 });
    });

    it('reserves nothing when one line is short, naming it, and nothing for an unknown SKU', async () => {
      await receive('WH-NL-AMS', [
        ['TEE-S', 10],
        ['TEE-M', 1],
      ]);
      const short = await order([
        ['TEE-S', 2],
        ['TEE-M', 2],
      ]);
      const unknown = await order([
        ['TEE-S', 1],
        ['GHOST-1', 1],
      ]);
      expect((await published()).map((a) => [a.topic, a.payload])).toEqual([
        [
          StockEvent.ReservationFailed,
          {
            order_id: short,
            attempt: 1,
            reason: ReservationFailure.InsufficientStock,
            message: 'Insufficient stock at WH-NL-AMS: TEE-M (2 needed, 1 available).',
            sku_numbers: ['TEE-M'],
          },
        ],
        [
          StockEvent.ReservationFailed,
          {
            order_id: unknown,
            attempt: 1,
            reason: ReservationFailure.UnknownSku,
            message: 'Unknown SKU: GHOST-1 (not a variant of yours).',
            sku_numbers: ['GHOST-1'],
          },
        ],
      ]);
      expect(await level('TEE-S')).toEqual({ on_hand: 10, reserved: 0, available: 10 });
    });

    it('is short at a warehouse that has no row for the SKU at all', async () => {
      await receive('WH-DE-BER', [['TEE-S', 10]]);
      await order([['TEE-S', 1]], 'WH-NL-AMS');
      expect((await published())[0].payload).toMatchObject({
        reason: ReservationFailure.InsufficientStock,
        message: 'Insufficient stock at WH-NL-AMS: TEE-S (1 needed, 0 available).',
      });
    });

    it('without a warehouse, takes the first that has every line; none is no_warehouse', async () => {
      await receive('WH-DE-BER', [['TEE-S', 1]]);
      await receive('WH-NL-AMS', [
        ['TEE-S', 5],
        ['TEE-M', 5],
      ]);
      await receive('WH-US-NJ', [
        ['TEE-S', 5],
        ['TEE-M', 5],
      ]);
      await order(
        [
          ['TEE-S', 2],
          ['TEE-M', 1],
        ],
        null,
      );
      await order(
        [
          ['TEE-S', 2],
          ['TEE-L', 1],
        ],
        null,
      );
      expect((await published()).map((a) => [a.payload.warehouse_code, a.payload.reason])).toEqual([
        ['WH-NL-AMS', undefined],
        [undefined, ReservationFailure.NoWarehouse],
      ]);
    });

    it('answers a repeated request (a released hold) from the reservation it already holds', async () => {
      await receive('WH-NL-AMS', [['TEE-S', 5]]);
      const id = await order([['TEE-S', 4]]);
      await order([['TEE-S', 4]], 'WH-NL-AMS', id, 2);
      expect((await published()).map((a) => [a.topic, a.payload.attempt])).toEqual([
        [StockEvent.Reserved, 1],
        [StockEvent.Reserved, 2],
      ]);
      expect(await level('TEE-S')).toEqual({ on_hand: 5, reserved: 4, available: 1 });
    });
  });

  describe('release and deduction', () => {
    const cancel = (orderId: number) =>
      handlers.onOrderCancelled(envelope({ order_id: orderId }, orderId));
    const ship = (orderId: number) =>
      handlers.onOrderShipped(
        envelope(
          { order_id: orderId, carrier: 'UPS', tracking_number: '1Z', packages: 1 },
          orderId,
        ),
      );

    it('announces each change of levels with the inventory rows as the change left them', async () => {
      await outbox.flush();
      levels.splice(0);
      await receive('WH-NL-AMS', [['TEE-S', 5]]);
      const id = await order([['TEE-S', 3]]);
      await cancel(id);
      await outbox.flush();
      const announced = levels
        .splice(0)
        .map((l) => (l.payload as { levels: { sku: string; reserved: number }[] }).levels);
      expect(announced.map((rows) => rows.map((r) => [r.sku, r.reserved]))).toEqual([
        [['TEE-S', 0]],
        [['TEE-S', 3]],
        [['TEE-S', 0]],
      ]);
      const [last] = announced[2] as unknown as Record<string, unknown>[];
      expect(last).toEqual({
        sku_number: String(variant['TEE-S']),
        sku: 'TEE-S',
        warehouse_code: 'WH-NL-AMS',
        ...(await level('TEE-S')),
      });
    });

    it('a cancellation gives the reserved units back, once', async () => {
      await receive('WH-NL-AMS', [['TEE-S', 5]]);
      const id = await order([['TEE-S', 3]]);
      await cancel(id);
      await cancel(id);
      expect(await level('TEE-S')).toEqual({ on_hand: 5, reserved: 0, available: 5 });
    });

    it('a shipment takes the reserved units off hand, once; a later cancellation changes nothing', async () => {
      await receive('WH-NL-AMS', [['TEE-S', 5]]);
      const id = await order([['TEE-S', 3]]);
      await ship(id);
      await ship(id);
      await cancel(id);
      expect(await level('TEE-S')).toEqual({ on_hand: 2, reserved: 0, available: 2 });
    });

    it('a cancellation that overtakes its reservation request leaves nothing reserved', async () => {
      await receive('WH-NL-AMS', [['TEE-S', 5]]);
      const id = nextOrder++;
      await cancel(id);
      await order([['TEE-S', 3]], 'WH-NL-AMS', id);
      expect(await published()).toEqual([]);
      expect(await level('TEE-S')).toEqual({ on_hand: 5, reserved: 0, available: 5 });
    });

    it('a cancellation of an order that got no stock changes nothing', async () => {
      await receive('WH-NL-AMS', [['TEE-S', 1]]);
      const kept = await order([['TEE-S', 1]]);
      const failed = await order([['TEE-S', 1]]);
      await cancel(failed);
      expect(await level('TEE-S')).toEqual({ on_hand: 1, reserved: 1, available: 0 });
      await ship(kept);
      expect(await level('TEE-S')).toEqual({ on_hand: 0, reserved: 0, available: 0 });
    });
  });

  it('gives concurrent orders for the last units exactly what is there, never more', async () => {
    await receive('WH-NL-AMS', [['TEE-S', 7]]);
    const ids = Array.from({ length: 24 }, () => nextOrder++);
    await Promise.all(ids.map((id) => order([['TEE-S', 1]], 'WH-NL-AMS', id)));
    const outcome = await published();
    expect(outcome.map((a) => a.payload.order_id).sort()).toEqual([...ids].sort());
    expect(outcome.filter((a) => a.topic === StockEvent.Reserved)).toHaveLength(7);
    expect(
      outcome.filter(
        (a) =>
          a.topic === StockEvent.ReservationFailed &&
          a.payload.reason === ReservationFailure.InsufficientStock,
      ),
    ).toHaveLength(17);
    expect(await level('TEE-S')).toEqual({ on_hand: 7, reserved: 7, available: 0 });
    const [{ negative }] = await dataSource.query(
      `SELECT count(*) AS negative FROM catalog.stock_level WHERE on_hand < 0 OR reserved < 0 OR reserved > on_hand`,
    );
    expect(negative).toBe(0);
  });

  describe('reconciliation with the orders', () => {
    it("releases a cancelled order's stock, consumes a shipped one's, reports an unknown order and leaves live ones", async () => {
      await receive('WH-NL-AMS', [
        ['TEE-S', 10],
        ['TEE-M', 10],
      ]);
      const cancelled = await order([['TEE-S', 2]]);
      const shipped = await order([['TEE-M', 3]]);
      const approved = await order([['TEE-S', 1]]);
      const unknown = await order([['TEE-M', 1]]);
      await published();
      // The cancellation and shipment events never reached catalog (lost, dead-lettered).
      orderStates.set(cancelled, OrderStatus.Cancelled);
      orderStates.set(shipped, OrderStatus.Completed);
      orderStates.set(approved, OrderStatus.Approved);
      expect(await level('TEE-S')).toEqual({ on_hand: 10, reserved: 3, available: 7 });

      const report = await reconciler.reconcile(merchant);
      expect(report.checked).toBe(4);
      expect(report.reservations).toEqual([
        expect.objectContaining({
          order_id: cancelled,
          order_status: 'Cancelled',
          action: 'released',
        }),
        expect.objectContaining({
          order_id: shipped,
          order_status: 'Completed',
          action: 'consumed',
        }),
        expect.objectContaining({ order_id: unknown, order_status: null, action: 'reported' }),
      ]);
      expect(report.counts).toEqual([]);
      expect(await level('TEE-S')).toEqual({ on_hand: 10, reserved: 1, available: 9 });
      expect(await level('TEE-M')).toEqual({ on_hand: 7, reserved: 1, available: 6 });
      // Idempotent: a second run repairs nothing more and only reports the unknown order again.
      const again = await reconciler.reconcile(merchant);
      expect(again.reservations.map((r) => r.action)).toEqual(['reported']);
      expect(await level('TEE-M')).toEqual({ on_hand: 7, reserved: 1, available: 6 });
    });

    it('sets a reserved count that drifted from its live reservations back to them', async () => {
      await receive('WH-NL-AMS', [['TEE-L', 5]]);
      const live = await order([['TEE-L', 2]]);
      orderStates.set(live, OrderStatus.Processing);
      await dataSource.query(
        `UPDATE "catalog"."stock_level" SET reserved = 4 WHERE variant_id = $1`,
        [variant['TEE-L']],
      );
      const report = await reconciler.reconcile(merchant);
      expect(report.reservations).toEqual([]);
      expect(report.counts).toEqual([
        {
          merchant_id: merchant,
          warehouse_code: 'WH-NL-AMS',
          variant_id: variant['TEE-L'],
          reserved_before: 4,
          reserved_after: 2,
        },
      ]);
      expect(await level('TEE-L')).toEqual({ on_hand: 5, reserved: 2, available: 3 });
    });
  });
});
