import {
  CommonErrorCode,
  EventEnvelope,
  LabelEvent,
  OrderShippedEvent,
  ShipmentDeliveredEvent,
} from '@consign/contracts';
import { Inbox } from '@consign/messaging';
import { anEventEnvelope } from '@consign/testing/fixtures';
import { LabelTrackingHandlers } from './label-tracking.handlers';
import {
  LabelTrackingHarness,
  aCarrierEvent,
  startLabelTracking,
} from './testing/label-tracking.harness';

describe('orders’ shipments and order tracking', () => {
  let h: LabelTrackingHarness;
  let handlers: LabelTrackingHandlers;
  let published: { topic: string; event: EventEnvelope<unknown> }[];
  const merchant = 21;
  let nextOrder = 500;

  beforeAll(async () => {
    h = await startLabelTracking();
    handlers = new LabelTrackingHandlers(
      h.labels,
      h.documents,
      h.voids,
      h.tracking,
      h.ingestor,
      h.shipments,
      new Inbox(h.dataSource, 'labels', { retryDelayMs: 1 }),
      h.commands,
    );
    for (const topic of [LabelEvent.ShipmentCreated, LabelEvent.ShipmentDelivered])
      h.broker.registerEventHandler(topic, async (event) => {
        published.push({ topic, event: event as EventEnvelope<unknown> });
      });
  });

  afterAll(async () => {
    await h.close();
  });

  beforeEach(() => {
    published = [];
  });

  /** order.shipped.v1 as order-service publishes it. */
  const shipped = (
    payload: Partial<OrderShippedEvent> & { order_id: number },
    merchantId = merchant,
  ) => ({
    ...anEventEnvelope(merchantId, String(payload.order_id), {
      carrier: 'DHL',
      tracking_number: `JD${payload.order_id}`,
      packages: 1,
      ...payload,
    }),
    occurred_at: '2026-05-02T06:00:00.000Z',
  });
  const deliveries = async () => {
    await h.outbox.flush();
    return published
      .filter((p) => p.topic === LabelEvent.ShipmentDelivered)
      .map((p) => p.event.payload as ShipmentDeliveredEvent);
  };

  it('tracks a shipped order: one tracking object, in the order-tracking format', async () => {
    const order = nextOrder++;
    await handlers.orderShipped(shipped({ order_id: order, carrier: 'dhl', packages: 2 }));
    await h.outbox.flush();
    expect(published).toEqual([
      {
        topic: LabelEvent.ShipmentCreated,
        event: expect.objectContaining({
          merchant_id: merchant,
          aggregate_id: String(order),
          payload: expect.objectContaining({
            order_id: order,
            carrier_code: 'DHL',
            tracking_number: `JD${order}`,
          }),
        }),
      },
    ]);
    await h.ingestor.ingest([
      aCarrierEvent({
        tracking_number: `JD${order}`,
        event_code: 'PU',
        description: 'Shipment picked up',
        location: 'Leipzig, DE',
        event_time: '2026-05-02T10:00:00+02:00',
      }),
    ]);
    expect(await h.tracking.orderTracking(merchant, order)).toEqual([
      {
        tracking_courier: 'DHL',
        tracking_number: `JD${order}`,
        outbound_time: '2026-05-02T08:00:00.000Z',
        delivered_time: null,
        checkpoints: [
          {
            local_time: '2026-05-02 08:00:00',
            details: 'Leipzig, DE',
            description: 'Shipment picked up',
            status: 'transit',
          },
          {
            local_time: '2026-05-02 06:00:00',
            details: null,
            description: 'Shipment information received: shipped from the warehouse.',
            status: 'information_received',
          },
        ],
      },
    ]);
  });

  it('has nothing for an order that has not shipped, or is another merchant’s', async () => {
    const order = nextOrder++;
    await handlers.orderShipped(shipped({ order_id: order }));
    expect(await h.tracking.orderTracking(merchant, 999_999)).toEqual([]);
    expect(await h.tracking.orderTracking(merchant + 1, order)).toEqual([]);
  });

  it('announces a delivered shipment; the order is all delivered once its last one is', async () => {
    const order = nextOrder++;
    await handlers.orderShipped(shipped({ order_id: order, tracking_number: `A${order}` }));
    await handlers.orderShipped(shipped({ order_id: order, tracking_number: `B${order}` }));
    const deliver = (number: string) =>
      h.ingestor.ingest([
        aCarrierEvent({
          tracking_number: number,
          event_code: 'OK',
          description: 'Delivered',
          event_time: '2026-05-03T12:00:00Z',
        }),
      ]);
    await deliver(`A${order}`);
    expect(await deliveries()).toEqual([
      expect.objectContaining({
        order_id: order,
        tracking_number: `A${order}`,
        delivered_time: '2026-05-03T12:00:00.000Z',
        all_delivered: false,
      }),
    ]);
    published = [];
    await deliver(`B${order}`);
    expect(await deliveries()).toEqual([
      expect.objectContaining({
        order_id: order,
        tracking_number: `B${order}`,
        all_delivered: true,
      }),
    ]);
    published = [];
    await deliver(`B${order}`); // a duplicate announces nothing
    expect(await deliveries()).toEqual([]);
  });

  it('attaches carrier events that came before the shipment', async () => {
    const order = nextOrder++;
    const early = aCarrierEvent({
      tracking_number: `JD${order}`,
      event_code: 'AF',
      description: 'Arrived at facility',
      event_time: '2026-05-02T09:00:00Z',
    });
    expect(await h.ingestor.ingest([early])).toEqual(['unmatched']);
    await handlers.orderShipped(shipped({ order_id: order }));
    const [tracking] = await h.tracking.orderTracking(merchant, order);
    expect(tracking.checkpoints[0]).toMatchObject({ description: 'Arrived at facility' });
  });

  it('follows the label the warehouse shipped with, delivered already or not', async () => {
    const labelId = await h.createLabel(merchant);
    await h.ingestor.ingest([
      aCarrierEvent({
        label_id: labelId,
        event_code: 'SD',
        description: 'Shipment information received',
        event_time: '2026-05-02T05:00:00Z',
        allocation: { tracking_courier: 'DHL', tracking_number: `L${labelId}` },
      }),
      aCarrierEvent({
        label_id: labelId,
        event_code: 'OK',
        description: 'Delivered',
        event_time: '2026-05-03T09:00:00Z',
      }),
    ]);
    const order = nextOrder++;
    await handlers.orderShipped(shipped({ order_id: order, tracking_number: `L${labelId}` }));
    const [tracking] = await h.tracking.orderTracking(merchant, order);
    expect(tracking).toMatchObject({
      tracking_number: `L${labelId}`,
      delivered_time: '2026-05-03T09:00:00.000Z',
    });
    expect(await deliveries()).toEqual([
      expect.objectContaining({ order_id: order, all_delivered: true }),
    ]);
  });

  it('parks an order shipped with another merchant’s tracking number', async () => {
    const order = nextOrder++;
    await handlers.orderShipped(shipped({ order_id: order, tracking_number: 'SHARED-1' }));
    await handlers.orderShipped(
      shipped({ order_id: nextOrder++, tracking_number: 'SHARED-1' }, merchant + 5),
    );
    const [letter] = await h.dataSource.query(
      `SELECT topic, error FROM labels.dead_letter ORDER BY id DESC LIMIT 1`,
    );
    expect(letter).toEqual({
      topic: 'order.shipped.v1',
      error: expect.stringContaining("another merchant's parcel"),
    });
  });

  it('says before a ship which parcel it would be, and refuses another merchant’s or a voided label’s number', async () => {
    const check = (tracking_number: string, merchantId = merchant, carrier = 'DHL') =>
      h.shipments.check(merchantId, { carrier, tracking_number, packages: 1 });
    await expect(check(' NEW-77 ', merchant, ' dhl ')).resolves.toEqual({
      tracking_courier: 'DHL',
      tracking_number: 'NEW-77',
      parcel_id: null,
    });

    const labelId = await h.createLabel(merchant);
    const allocated = (id: number, number: string) =>
      aCarrierEvent({
        label_id: id,
        event_code: 'SD',
        description: 'Shipment information received',
        event_time: '2026-05-02T05:00:00Z',
        allocation: { tracking_courier: 'DHL', tracking_number: number },
      });
    await h.ingestor.ingest([allocated(labelId, `CHK${labelId}`)]);
    await expect(check(`CHK${labelId}`)).resolves.toMatchObject({ parcel_id: labelId });
    await expect(check(`CHK${labelId}`, merchant + 7)).rejects.toMatchObject({
      code: CommonErrorCode.Conflict,
      message: `DHL CHK${labelId} is another merchant's parcel: an order cannot ship with it.`,
    });

    const voided = await h.createLabel(merchant);
    await h.ingestor.ingest([allocated(voided, `CHK${voided}`)]);
    await h.voids.void(merchant, voided);
    await expect(check(`CHK${voided}`)).rejects.toMatchObject({
      code: CommonErrorCode.Conflict,
      message: `DHL CHK${voided} is the number of label ${voided}, voided: an order cannot ship with it.`,
    });
    // The same rule when the shipment comes (a check and a void crossing).
    await handlers.orderShipped(
      shipped({ order_id: nextOrder++, tracking_number: `CHK${voided}` }),
    );
    const [letter] = await h.dataSource.query(
      `SELECT error FROM labels.dead_letter ORDER BY id DESC LIMIT 1`,
    );
    expect(letter.error).toContain(`is the number of label ${voided}, voided`);
  });
});
