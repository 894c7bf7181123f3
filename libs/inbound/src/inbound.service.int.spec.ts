import {
  CatalogTopic,
  CommonErrorCode,
  CreateInboundRequest,
  EventEnvelope,
  InboundErrorCode,
  InboundEvent,
  InboundStatus,
  RatingTopic,
  ResolveVariantsQuery,
  WarehouseEvent,
  success,
} from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { Inbox } from '@consign/messaging';
import { loadConfig } from '@consign/config';
import { InboundRepository } from './inbound.repository';
import { inboundDatabase } from './inbound.database';
import { InboundHandlers } from './inbound.handlers';
import { InboundLifecycle } from './inbound-lifecycle.service';
import { InboundService } from './inbound.service';
import { useServiceTestBed } from '@consign/testing';
import { RatingClient } from '@consign/rating-client';
import { anEventEnvelope, valueOf, validInbound } from '@consign/testing/fixtures';

/** The merchant's variants as catalog-service would resolve them: id and sku code. */
const VARIANTS = [
  { variant_id: 501, sku: 'TEE-S' },
  { variant_id: 502, sku: 'TEE-M' },
];

function inboundRequest(plain: unknown): CreateInboundRequest {
  return valueOf(CreateInboundRequest, plain);
}

/** The fixture's inbound order, of these variants (one by id, one by sku code), to Amsterdam. */
function anInbound(overrides: Record<string, unknown> = {}) {
  return {
    ...validInbound(),
    items: [
      { quantity: 100, sku_number: '501' },
      { quantity: 5, sku_number: 'TEE-M' },
    ],
    warehouse_code: 'WH-NL-AMS',
    ...overrides,
  };
}

describe('InboundService and InboundLifecycle', () => {
  const bed = useServiceTestBed(inboundDatabase.options);
  let inbounds: InboundService;
  let lifecycle: InboundLifecycle;
  let handlers: InboundHandlers;
  let received: EventEnvelope<Record<string, unknown>>[];
  let merchant = 200;

  const published = async () => {
    await bed.outbox.flush();
    return received.splice(0);
  };
  const create = async (plain: unknown = anInbound()) =>
    inbounds.create(merchant, inboundRequest(plain));
  const receive = (
    id: number,
    items: { sku_number: string; quantity: number }[],
    complete?: boolean,
  ) =>
    lifecycle.apply(merchant, id, (m) => lifecycle.receive(m, merchant, id, { items, complete }));

  beforeAll(() => {
    const { dataSource, broker, outbox, commands } = bed;
    broker.registerRequestHandler(RatingTopic.ListWarehouses, async () =>
      success([{ code: 'WH-NL-AMS', name: 'Amsterdam', country_code: 'NL' }]),
    );
    broker.registerRequestHandler(CatalogTopic.ResolveVariants, async (data) => {
      const { sku_numbers } = data as ResolveVariantsQuery;
      return success(
        sku_numbers.flatMap((sku_number) =>
          VARIANTS.filter((v) => String(v.variant_id) === sku_number || v.sku === sku_number).map(
            (v) => ({ sku_number, ...v }),
          ),
        ),
      );
    });
    received = [];
    broker.registerEventHandler(InboundEvent.Received, async (event) => {
      received.push(event as EventEnvelope<Record<string, unknown>>);
    });
    const config = loadConfig({ BUS_TIMEOUT_MS: '1000' });
    const bus = new CommandBus(new InProcessClient(broker), config);
    inbounds = new InboundService(
      dataSource,
      commands,
      new RatingClient(bus, config),
      bus,
      outbox,
      new InboundRepository(),
    );
    lifecycle = new InboundLifecycle(dataSource, outbox, commands, new InboundRepository());
    handlers = new InboundHandlers(
      inbounds,
      lifecycle,
      new Inbox(dataSource, 'inbound', { retryDelayMs: 1 }),
      commands,
    );
  });

  beforeEach(async () => {
    merchant++;
    await published();
  });

  describe('create and read', () => {
    it('round-trips every field; a new inbound order is Pending with nothing received', async () => {
      const plain = anInbound();
      const id = await create(plain);
      expect(await inbounds.get(merchant, id)).toEqual({
        id,
        carrier: 'UPS',
        tracking_no: '1Z999AA10123456784',
        expected_inbound_date: '2025-08-15',
        actual_inbound_at: null,
        items: [
          { sku_number: '501', expect_quantity: 100, actual_quantity: 0, still_need_quantity: 100 },
          { sku_number: 'TEE-M', expect_quantity: 5, actual_quantity: 0, still_need_quantity: 5 },
        ],
        package_number: 3,
        reference: 'ASN-2025-001',
        remarks: 'Fragile',
        shipper: plain.shipper,
        status: InboundStatus.Pending,
        warehouse_code: 'WH-NL-AMS',
        exceptional: false,
        feedback: null,
        print_times: 0,
        rejection_reason: null,
      });
    });

    it('takes package_number 0 (not yet known) and only the required fields', async () => {
      const id = await create({
        items: [{ quantity: 1, sku_number: 'TEE-S' }],
        package_number: 0,
        warehouse_code: 'WH-NL-AMS',
      });
      expect(await inbounds.get(merchant, id)).toMatchObject({
        package_number: 0,
        carrier: null,
        tracking_no: null,
        expected_inbound_date: null,
        reference: null,
        remarks: null,
        shipper: null,
      });
    });

    it('refuses sku_numbers that are not the merchant’s variants, or name one variant twice', async () => {
      await expect(
        create(
          anInbound({
            items: [
              { quantity: 1, sku_number: 'NOPE' },
              { quantity: 1, sku_number: '501' },
              { quantity: 2, sku_number: 'TEE-S' },
            ],
          }),
        ),
      ).rejects.toMatchObject({
        code: InboundErrorCode.UnknownReference,
        message:
          'Validation failed: items[0].sku_number NOPE is not one of your variants; items[2].sku_number names the same variant as items[1]',
      });
      expect((await inbounds.list(merchant, 1, 20)).total).toBe(0);
    });

    it('refuses a warehouse rating-service does not know', async () => {
      await expect(create(anInbound({ warehouse_code: 'WH-XX' }))).rejects.toMatchObject({
        code: InboundErrorCode.UnknownReference,
        message:
          'Validation failed: warehouse_code WH-XX is not a warehouse you can use (known: WH-NL-AMS)',
      });
    });

    it('is Unavailable when catalog-service cannot resolve the items', async () => {
      const config = loadConfig({ BUS_TIMEOUT_MS: '1000' });
      const lonely = new InProcessBroker();
      lonely.registerRequestHandler(RatingTopic.ListWarehouses, async () =>
        success([{ code: 'WH-NL-AMS', name: 'Amsterdam', country_code: 'NL' }]),
      );
      const bus = new CommandBus(new InProcessClient(lonely), config);
      const alone = new InboundService(
        bed.dataSource,
        bed.commands,
        new RatingClient(bus, config),
        bus,
        bed.outbox,
        new InboundRepository(),
      );
      await expect(alone.create(merchant, inboundRequest(anInbound()))).rejects.toMatchObject({
        code: CommonErrorCode.Unavailable,
      });
    });

    it('lists newest first from page 1 with the total; another merchant sees none of them', async () => {
      const ids = [await create(), await create(), await create()];
      const page = await inbounds.list(merchant, 1, 2);
      expect(page).toMatchObject({ page: 1, size: 2, total: 3 });
      expect(page.list.map((i) => i.id)).toEqual([ids[2], ids[1]]);
      expect((await inbounds.list(merchant, 2, 2)).list.map((i) => i.id)).toEqual([ids[0]]);
      expect(await inbounds.list(merchant + 1000, 1, 20)).toEqual({
        page: 1,
        size: 20,
        total: 0,
        list: [],
      });
      await expect(inbounds.get(merchant + 1000, ids[0])).rejects.toMatchObject({
        code: InboundErrorCode.InboundNotFound,
        message: 'Inbound order not found.',
      });
    });
  });

  describe('receipts', () => {
    it('Partial, then Completed; each receipt puts what it brought on hand', async () => {
      const id = await create();
      const partial = await receive(id, [{ sku_number: '501', quantity: 60 }]);
      expect(partial).toMatchObject({
        status: InboundStatus.Partial,
        exceptional: false,
        feedback: null,
      });
      expect(partial.actual_inbound_at).toMatch(/Z$/);
      expect(partial.items.map((i) => [i.actual_quantity, i.still_need_quantity])).toEqual([
        [60, 40],
        [0, 5],
      ]);
      const completed = await receive(id, [
        { sku_number: '501', quantity: 40 },
        { sku_number: 'TEE-M', quantity: 5 },
      ]);
      expect(completed).toMatchObject({ status: InboundStatus.Completed, exceptional: false });
      expect(completed.actual_inbound_at).toBe(partial.actual_inbound_at);
      expect((await published()).map((e) => [e.merchant_id, e.aggregate_id, e.payload])).toEqual([
        [
          merchant,
          String(id),
          {
            inbound_id: id,
            warehouse_code: 'WH-NL-AMS',
            lines: [{ variant_id: 501, sku_number: '501', quantity: 60 }],
          },
        ],
        [
          merchant,
          String(id),
          {
            inbound_id: id,
            warehouse_code: 'WH-NL-AMS',
            lines: [
              { variant_id: 501, sku_number: '501', quantity: 40 },
              { variant_id: 502, sku_number: 'TEE-M', quantity: 5 },
            ],
          },
        ],
      ]);
      await expect(receive(id, [{ sku_number: '501', quantity: 1 }])).rejects.toMatchObject({
        code: InboundErrorCode.InvalidTransition,
        message: `Inbound order ${id} is Completed: it cannot become Completed.`,
      });
    });

    it('notes a discrepancy in feedback and marks the order exceptional', async () => {
      const id = await create();
      const view = await receive(
        id,
        [
          { sku_number: '501', quantity: 98 },
          { sku_number: 'TEE-M', quantity: 6 },
        ],
        true,
      );
      expect(view).toMatchObject({
        status: InboundStatus.Completed,
        exceptional: true,
        feedback:
          'SKU 501: expected 100, received 98 (2 short); SKU TEE-M: expected 5, received 6 (1 over)',
      });
      expect(view.items.map((i) => i.still_need_quantity)).toEqual([2, 0]);
    });

    it('rejects a sku that is not on the order, changing nothing', async () => {
      const id = await create();
      await expect(receive(id, [{ sku_number: 'TEE-S', quantity: 1 }])).rejects.toMatchObject({
        code: InboundErrorCode.UnknownReference,
      });
      expect((await inbounds.get(merchant, id)).status).toBe(InboundStatus.Pending);
      expect(await published()).toEqual([]);
    });
  });

  describe('reject and cancel', () => {
    it('the warehouse rejects a Pending delivery: Failure with the reason', async () => {
      const id = await create();
      expect(
        await lifecycle.apply(merchant, id, (m) =>
          lifecycle.reject(m, merchant, id, 'Damaged pallets'),
        ),
      ).toMatchObject({ status: InboundStatus.Failure, rejection_reason: 'Damaged pallets' });
    });

    it('the merchant cancels from Pending only', async () => {
      const pending = await create();
      expect(
        (await lifecycle.apply(merchant, pending, (m) => lifecycle.cancel(m, merchant, pending)))
          .status,
      ).toBe(InboundStatus.Cancelled);
      const partial = await create();
      await receive(partial, [{ sku_number: '501', quantity: 1 }]);
      await expect(
        lifecycle.apply(merchant, partial, (m) => lifecycle.cancel(m, merchant, partial)),
      ).rejects.toMatchObject({
        code: InboundErrorCode.InvalidTransition,
        message: `Inbound order ${partial} is Partial: it cannot become Cancelled.`,
      });
    });
  });

  describe('warehouse events', () => {
    const envelope = (payload: Record<string, unknown>) =>
      anEventEnvelope(merchant, String(payload.inbound_id), payload);

    it('a receipt event runs the same use case, once, however often it is delivered', async () => {
      const id = await create();
      const event = envelope({ inbound_id: id, items: [{ sku_number: 'TEE-M', quantity: 5 }] });
      await handlers.onReceived(event);
      await handlers.onReceived(event);
      const view = await inbounds.get(merchant, id);
      expect(view.status).toBe(InboundStatus.Partial);
      expect(view.items[1].actual_quantity).toBe(5);
      expect(await published()).toHaveLength(1);
    });

    it('a rejection event fails the delivery; one the state machine refuses is parked', async () => {
      const id = await create();
      await handlers.onRejected(envelope({ inbound_id: id, reason: 'Wrong address' }));
      expect((await inbounds.get(merchant, id)).status).toBe(InboundStatus.Failure);
      await handlers.onReceived(
        envelope({ inbound_id: id, items: [{ sku_number: '501', quantity: 1 }] }),
      );
      const letters = await bed.dataSource.query(
        `SELECT topic, error FROM inbound.dead_letter ORDER BY id DESC LIMIT 1`,
      );
      expect(letters).toEqual([
        {
          topic: WarehouseEvent.InboundReceived,
          error: `Inbound order ${id} is Failure: it cannot become Partial.`,
        },
      ]);
      expect((await inbounds.get(merchant, id)).items[0].actual_quantity).toBe(0);
    });
  });
});
