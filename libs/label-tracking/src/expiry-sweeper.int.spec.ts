import { CheckpointStatus as S, LabelEvent } from '@consign/contracts';
import { DAY_MS } from '@consign/core';
import { ExpirySweeper } from './expiry-sweeper';
import { LabelTrackingConfig } from './label-tracking.config';
import { TrackingRepository } from './tracking.repository';
import {
  LabelTrackingHarness,
  aCarrierEvent,
  startLabelTracking,
} from './testing/label-tracking.harness';

describe('expiry sweep (fake clock)', () => {
  let h: LabelTrackingHarness;
  const start = new Date('2026-05-01T08:00:00.000Z');

  beforeAll(async () => {
    h = await startLabelTracking();
  });

  afterAll(async () => {
    await h.close();
  });

  beforeEach(() => h.clock.set(start));

  const expiredCheckpoints = async (id: number) =>
    (await h.tracking.labelTracking(1, id)).checkpoints.filter((c) => c.status === S.Expired);

  it('expires a label with no event for 30 days, once, with an expired checkpoint at the sweep time', async () => {
    const id = await h.createLabel();
    h.clock.advance(30 * DAY_MS - 1);
    await h.sweeper.sweep();
    expect((await h.labels.get(1, id)).status).toBe(S.InformationReceived);

    const now = h.clock.advance(2);
    expect(await h.sweeper.sweep()).toBeGreaterThanOrEqual(1);
    expect((await h.labels.get(1, id)).status).toBe(S.Expired);
    expect(await expiredCheckpoints(id)).toEqual([
      {
        local_time: now.toISOString(),
        details: null,
        description: 'No tracking update from the carrier for 30 days.',
        status: S.Expired,
      },
    ]);

    h.clock.advance(DAY_MS);
    expect(await h.sweeper.sweep()).toBe(0);
    expect(await expiredCheckpoints(id)).toHaveLength(1);
  });

  it('counts the 30 days from the latest carrier event, not from a late old one', async () => {
    const id = await h.createLabel();
    await h.ingestor.ingest([
      aCarrierEvent({ label_id: id, event_code: 'PU', event_time: '2026-05-10T08:00:00Z' }),
    ]);
    h.clock.set('2026-06-01T08:00:00Z');
    // An event from before the latest one arrives late: the clock still runs from May 10.
    await h.ingestor.ingest([
      aCarrierEvent({ label_id: id, event_code: 'SD', event_time: '2026-05-05T08:00:00Z' }),
    ]);
    h.clock.set('2026-06-09T07:59:59Z');
    await h.sweeper.sweep();
    expect((await h.labels.get(1, id)).status).toBe(S.InTransit);
    h.clock.set('2026-06-09T08:00:01Z');
    await h.sweeper.sweep();
    expect((await h.labels.get(1, id)).status).toBe(S.Expired);
  });

  it('never expires a delivered or disposed parcel', async () => {
    const delivered = await h.createLabel();
    const disposed = await h.createLabel();
    await h.ingestor.ingest([
      aCarrierEvent({ label_id: delivered, event_code: 'OK', event_time: '2026-05-02T08:00:00Z' }),
      aCarrierEvent({ label_id: disposed, event_code: 'DS', event_time: '2026-05-02T08:00:00Z' }),
    ]);
    h.clock.advance(90 * DAY_MS);
    await h.sweeper.sweep();
    expect((await h.labels.get(1, delivered)).status).toBe(S.Delivered);
    expect((await h.labels.get(1, disposed)).status).toBe(S.Disposed);
  });

  it('lets a carrier event after expiry take over again', async () => {
    const id = await h.createLabel();
    h.clock.advance(31 * DAY_MS);
    await h.sweeper.sweep();
    await h.ingestor.ingest([
      aCarrierEvent({ label_id: id, event_code: 'OK', event_time: h.clock.now().toISOString() }),
    ]);
    h.clock.advance(1000);
    expect((await h.labels.get(1, id)).status).toBe(S.Delivered);
  });

  /** The tracking updates announced in the outbox for this aggregate (label or order id). */
  const announced = async (topic: string, aggregateId: number) =>
    (
      (await h.dataSource.query(
        `SELECT envelope FROM "labels"."outbox_event" WHERE topic = $1 AND message_key = $2
          ORDER BY id`,
        [topic, String(aggregateId)],
      )) as { envelope: { merchant_id: number; payload: unknown } }[]
    ).map((row) => row.envelope);

  it('announces an expiry like a carrier checkpoint: label.tracking_updated, once', async () => {
    const id = await h.createLabel();
    h.clock.advance(31 * DAY_MS);
    expect(await announced(LabelEvent.TrackingUpdated, id)).toEqual([]);
    await h.sweeper.sweep();
    expect(await announced(LabelEvent.TrackingUpdated, id)).toEqual([
      expect.objectContaining({ merchant_id: 1, payload: { label_id: id } }),
    ]);
    h.clock.advance(DAY_MS);
    await h.sweeper.sweep();
    expect(await announced(LabelEvent.TrackingUpdated, id)).toHaveLength(1);
  });

  it('announces an expired shipment as order.tracking_updated for its order', async () => {
    const orderId = 9_001;
    await h.dataSource.transaction((manager) =>
      h.shipments.recordShipped(
        manager,
        7,
        { order_id: orderId, carrier: 'DHL', tracking_number: 'JDEXPIRY1', packages: 1 },
        h.clock.now(),
      ),
    );
    h.clock.advance(31 * DAY_MS);
    expect(await announced(LabelEvent.OrderTrackingUpdated, orderId)).toEqual([]);
    await h.sweeper.sweep();
    expect(await announced(LabelEvent.OrderTrackingUpdated, orderId)).toEqual([
      expect.objectContaining({ merchant_id: 7, payload: { order_id: orderId } }),
    ]);
  });

  it('expires each parcel once when several replicas sweep at the same time', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => h.createLabel()));
    h.clock.advance(40 * DAY_MS);
    const replicas = [1, 2, 3].map(
      () =>
        new ExpirySweeper(
          h.dataSource,
          h.outbox,
          h.clock,
          new LabelTrackingConfig(),
          new TrackingRepository(),
        ),
    );
    await Promise.all(replicas.map((replica) => replica.sweep()));
    for (const id of ids) expect(await expiredCheckpoints(id)).toHaveLength(1);
  });
});

describe('expiry sweep schedule (fake timers)', () => {
  afterEach(() => jest.useRealTimers());

  function sweeperEvery(ms: number): ExpirySweeper {
    const config = Object.assign(new LabelTrackingConfig(), { LABEL_EXPIRY_SWEEP_MS: ms });
    return new ExpirySweeper(
      undefined as never,
      undefined as never,
      { now: () => new Date() },
      config,
      new TrackingRepository(),
    );
  }

  it('sweeps every LABEL_EXPIRY_SWEEP_MS once the application started, and stops at shutdown', async () => {
    jest.useFakeTimers();
    const sweeper = sweeperEvery(60_000);
    const sweep = jest.spyOn(sweeper, 'sweep').mockResolvedValue(0);
    sweeper.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(sweep).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(sweep).toHaveBeenCalledTimes(3);
    await sweeper.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(sweep).toHaveBeenCalledTimes(3);
  });

  it('skips a run while the previous one is still going, and survives a failed one', async () => {
    jest.useFakeTimers();
    const sweeper = sweeperEvery(1_000);
    let finish!: () => void;
    const sweep = jest
      .spyOn(sweeper, 'sweep')
      .mockImplementationOnce(() => new Promise<number>((r) => (finish = () => r(0))))
      .mockRejectedValueOnce(new Error('database down'))
      .mockResolvedValue(0);
    sweeper.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    finish();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(sweep).toHaveBeenCalledTimes(3);
    await sweeper.beforeApplicationShutdown();
  });
});
