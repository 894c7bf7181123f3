import { CheckpointStatus as S, LabelErrorCode } from '@consign/contracts';
import {
  LabelTrackingHarness,
  aCarrierEvent,
  startLabelTracking,
} from './testing/label-tracking.harness';

describe('checkpoint ingestion and label tracking', () => {
  let h: LabelTrackingHarness;

  beforeAll(async () => {
    h = await startLabelTracking();
  });

  afterAll(async () => {
    await h.close();
  });

  const count = async (table: string, where = 'true', params: unknown[] = []) =>
    Number(
      (
        await h.dataSource.query(
          `SELECT count(*) AS n FROM "labels"."${table}" WHERE ${where}`,
          params,
        )
      )[0].n,
    );

  it('answers a fresh label with explicit nulls and one information_received checkpoint', async () => {
    const id = await h.createLabel();
    await expect(h.tracking.labelTracking(1, id)).resolves.toEqual({
      tracking_courier: null,
      tracking_number: null,
      outbound_time: null,
      delivered_time: null,
      checkpoints: [
        {
          local_time: '2026-05-01T08:00:00.000Z',
          details: null,
          description: 'Shipment information received: label created.',
          status: S.InformationReceived,
        },
      ],
    });
  });

  it('answers Order not found for an unknown label and for another merchant’s', async () => {
    const id = await h.createLabel(1);
    for (const [merchant, label] of [
      [1, 987654],
      [2, id],
    ]) {
      await expect(h.tracking.labelTracking(merchant, label)).rejects.toMatchObject({
        code: LabelErrorCode.TrackingNotFound,
        message: 'Order not found.',
      });
    }
    await expect(h.labels.get(2, id)).rejects.toMatchObject({
      code: LabelErrorCode.LabelNotFound,
    });
  });

  it('records a lifecycle sent out of order, returns it latest first in UTC, and sets the times', async () => {
    const id = await h.createLabel();
    const events = [
      aCarrierEvent({
        label_id: id,
        event_code: 'OK',
        description: 'Delivered',
        location: 'Berlin, DE',
        event_time: '2026-05-03T14:05:00+02:00',
      }),
      aCarrierEvent({
        label_id: id,
        event_code: 'PU',
        description: 'Shipment picked up',
        location: 'London, GB',
        event_time: '2026-05-02T09:00:00+01:00',
        allocation: { tracking_courier: 'DHL', tracking_number: 'JD0001' },
      }),
      aCarrierEvent({
        label_id: id,
        event_code: 'WC',
        description: 'With delivery courier',
        location: 'Berlin, DE',
        event_time: '2026-05-03T07:30:00Z',
      }),
      aCarrierEvent({
        label_id: id,
        event_code: 'AF',
        description: 'Arrived at facility',
        location: 'Leipzig, DE',
        event_time: '2026-05-02T22:10:00+02:00',
      }),
    ];
    await expect(h.ingestor.ingest(events)).resolves.toEqual([
      'recorded',
      'recorded',
      'recorded',
      'recorded',
    ]);
    const tracking = await h.tracking.labelTracking(1, id);
    expect(tracking).toEqual({
      tracking_courier: 'DHL',
      tracking_number: 'JD0001',
      outbound_time: '2026-05-02T08:00:00.000Z',
      delivered_time: '2026-05-03T12:05:00.000Z',
      checkpoints: [
        {
          local_time: '2026-05-03T12:05:00.000Z',
          details: 'Berlin, DE',
          description: 'Delivered',
          status: S.Delivered,
        },
        {
          local_time: '2026-05-03T07:30:00.000Z',
          details: 'Berlin, DE',
          description: 'With delivery courier',
          status: S.OutForDelivery,
        },
        {
          local_time: '2026-05-02T20:10:00.000Z',
          details: 'Leipzig, DE',
          description: 'Arrived at facility',
          status: S.InTransit,
        },
        {
          local_time: '2026-05-02T08:00:00.000Z',
          details: 'London, GB',
          description: 'Shipment picked up',
          status: S.InTransit,
        },
        expect.objectContaining({ status: S.InformationReceived }),
      ],
    });
    await expect(h.labels.get(1, id)).resolves.toMatchObject({
      id,
      status: S.Delivered,
      tracking_courier: 'DHL',
      tracking_number: 'JD0001',
      delivered_time: '2026-05-03T12:05:00.000Z',
    });
  });

  it('reaches the same summary whether the events come together or one by one, in any order', async () => {
    const lifecycle = (id: number) => [
      aCarrierEvent({ label_id: id, event_code: 'PU', event_time: '2026-05-02T09:00:00Z' }),
      aCarrierEvent({ label_id: id, event_code: 'AF', event_time: '2026-05-02T20:00:00Z' }),
      aCarrierEvent({ label_id: id, event_code: 'WC', event_time: '2026-05-03T07:00:00Z' }),
      aCarrierEvent({ label_id: id, event_code: 'NH', event_time: '2026-05-03T11:00:00Z' }),
      aCarrierEvent({ label_id: id, event_code: 'OK', event_time: '2026-05-04T10:00:00Z' }),
    ];
    const together = await h.createLabel();
    await h.ingestor.ingest(lifecycle(together));
    const oneByOne = await h.createLabel();
    for (const i of [3, 0, 4, 2, 1]) await h.ingestor.ingest([lifecycle(oneByOne)[i]]);
    const summary = async (id: number) => {
      const { id: _id, created_time: _created, ...label } = await h.labels.get(1, id);
      return { label, tracking: await h.tracking.labelTracking(1, id) };
    };
    const expected = await summary(together);
    expect(expected.label).toMatchObject({
      status: S.Delivered,
      delivered_time: '2026-05-04T10:00:00.000Z',
    });
    expect(expected.tracking.outbound_time).toBe('2026-05-02T09:00:00.000Z');
    const actual = await summary(oneByOne);
    expect({ ...actual.tracking, checkpoints: actual.tracking.checkpoints.slice(0, 5) }).toEqual({
      ...expected.tracking,
      checkpoints: expected.tracking.checkpoints.slice(0, 5),
    });
    expect(actual.label).toEqual(expected.label);
  });

  it('lets the later arrival win between checkpoints of the same time, in a batch and across batches', async () => {
    const event = (id: number, event_code: string, location = 'Berlin, DE') =>
      aCarrierEvent({ label_id: id, event_code, location, event_time: '2026-05-02T09:00:00Z' });
    const label = (id: number) => h.labels.get(1, id);
    // DHL: OK delivered, NH a failed delivery attempt; all at the same time.
    const [first, second] = [await h.createLabel(), await h.createLabel()];
    await h.ingestor.ingest([event(first, 'OK'), event(first, 'NH')]);
    await h.ingestor.ingest([event(second, 'NH'), event(second, 'OK')]);
    expect(await label(first)).toMatchObject({
      status: S.DeliveryAttemptFailed,
      delivered_time: '2026-05-02T09:00:00.000Z',
    });
    expect(await label(second)).toMatchObject({ status: S.Delivered });
    await h.ingestor.ingest([event(second, 'NH', 'Berlin Mitte, DE')]);
    expect(await label(second)).toMatchObject({
      status: S.DeliveryAttemptFailed,
      delivered_time: '2026-05-02T09:00:00.000Z',
    });
  });

  it('ignores duplicates, within a batch and across batches, whatever zone the time is written in', async () => {
    const id = await h.createLabel();
    const event = aCarrierEvent({ label_id: id });
    expect(await h.ingestor.ingest([event, { ...event }])).toEqual(['recorded', 'duplicate']);
    expect(
      await h.ingestor.ingest([
        { ...event, event_time: '2026-05-02T08:00:00Z', description: 'resent' },
      ]),
    ).toEqual(['duplicate']);
    expect(await h.ingestor.ingest([{ ...event, location: 'Halle, DE' }])).toEqual(['recorded']);
    expect(await count('checkpoint', 'tracking_id = $1', [id])).toBe(3);
  });

  it('announces a tracking update (for webhooks) once per label whose batch recorded something', async () => {
    const id = await h.createLabel();
    const updates = () =>
      count('outbox_event', `topic = 'label.tracking.updated.v1' AND message_key = $1`, [
        String(id),
      ]);
    const event = aCarrierEvent({ label_id: id });
    await h.ingestor.ingest([event, { ...event, event_code: 'OK', description: 'Delivered' }]);
    expect(await updates()).toBe(1);
    // Only duplicates: nothing changed, nothing announced.
    await h.ingestor.ingest([event]);
    expect(await updates()).toBe(1);
    const [row] = (await h.dataSource.query(
      `SELECT envelope FROM "labels"."outbox_event"
        WHERE topic = 'label.tracking.updated.v1' AND message_key = $1`,
      [String(id)],
    )) as { envelope: { merchant_id: number; payload: unknown } }[];
    expect(row.envelope).toMatchObject({ merchant_id: 1, payload: { label_id: id } });
  });

  it('coalesces concurrent callers into one transaction and answers each with its own outcomes', async () => {
    const a = await h.createLabel();
    const b = await h.createLabel();
    const results = await Promise.all([
      h.ingestor.ingest([aCarrierEvent({ label_id: a, event_code: 'PU' })]),
      h.ingestor.ingest([
        aCarrierEvent({ label_id: b, event_code: 'PU' }),
        aCarrierEvent({ label_id: 999999 }),
      ]),
      h.ingestor.ingest([aCarrierEvent({ label_id: a, event_code: 'PU' })]),
    ]);
    expect(results).toEqual([['recorded'], ['recorded', 'unmatched'], ['duplicate']]);
  });

  it('keeps events for an unknown tracking number and attaches them when the number is allocated', async () => {
    const id = await h.createLabel();
    const early = aCarrierEvent({
      tracking_number: 'JD0777',
      event_code: 'DF',
      description: 'Departed facility',
      event_time: '2026-05-02T12:00:00Z',
    });
    expect(await h.ingestor.ingest([early])).toEqual(['unmatched']);
    expect(await count('unmatched_checkpoint', `tracking_number = 'JD0777'`)).toBe(1);

    const allocation = aCarrierEvent({
      label_id: id,
      event_code: 'PU',
      description: 'Shipment picked up',
      event_time: '2026-05-02T09:00:00Z',
      allocation: { tracking_courier: 'DHL', tracking_number: 'JD0777' },
    });
    const byNumber = aCarrierEvent({
      tracking_number: 'JD0777',
      event_code: 'AF',
      description: 'Arrived at facility',
      event_time: '2026-05-02T18:00:00Z',
    });
    // The allocation and an event naming the new number arrive in the same batch.
    expect(await h.ingestor.ingest([byNumber, allocation])).toEqual(['recorded', 'recorded']);
    expect(await count('unmatched_checkpoint', `tracking_number = 'JD0777'`)).toBe(0);
    const tracking = await h.tracking.labelTracking(1, id);
    expect(tracking.checkpoints.map((c) => c.description)).toEqual([
      'Arrived at facility',
      'Departed facility',
      'Shipment picked up',
      'Shipment information received: label created.',
    ]);
    // Later events by number alone find the label.
    expect(
      await h.ingestor.ingest([
        {
          ...byNumber,
          event_code: 'WC',
          description: 'With delivery courier',
          event_time: '2026-05-03T08:00:00Z',
        },
      ]),
    ).toEqual(['recorded']);
    expect((await h.labels.get(1, id)).status).toBe(S.OutForDelivery);
  });

  it('keeps the latest allocation by event time, and refuses a number another parcel holds', async () => {
    const id = await h.createLabel();
    const other = await h.createLabel();
    const allocate = (labelId: number, number: string, time: string) =>
      aCarrierEvent({
        label_id: labelId,
        event_code: 'SD',
        description: 'Shipment information received',
        event_time: time,
        location: number,
        allocation: { tracking_courier: 'DHL', tracking_number: number },
      });
    await h.ingestor.ingest([allocate(id, 'NEW-1', '2026-05-02T10:00:00Z')]);
    await h.ingestor.ingest([allocate(id, 'OLD-1', '2026-05-02T09:00:00Z')]);
    expect((await h.labels.get(1, id)).tracking_number).toBe('NEW-1');
    await h.ingestor.ingest([allocate(other, 'NEW-1', '2026-05-02T11:00:00Z')]);
    expect((await h.labels.get(1, other)).tracking_number).toBeNull();
    await h.ingestor.ingest([allocate(id, 'NEWER-1', '2026-05-02T12:00:00Z')]);
    expect((await h.labels.get(1, id)).tracking_number).toBe('NEWER-1');
  });

  it('parks an event for an unknown label id', async () => {
    const before = await count('unmatched_checkpoint', `reason = 'unknown_label'`);
    expect(await h.ingestor.ingest([aCarrierEvent({ label_id: 5_000_000 })])).toEqual([
      'unmatched',
    ]);
    expect(await count('unmatched_checkpoint', `reason = 'unknown_label'`)).toBe(before + 1);
  });

  it('takes a carrier’s events for its own labels only: another carrier’s label is unmatched and unchanged', async () => {
    const id = await h.createLabel(); // a DHL label
    const before = await count('unmatched_checkpoint', `reason = 'unknown_label'`);
    const delivered = aCarrierEvent({
      carrier_code: 'DPD',
      label_id: id,
      event_code: 'DELIVERED',
      description: 'Delivered',
      event_time: '2026-05-03T10:00:00Z',
      allocation: { tracking_courier: 'DPD', tracking_number: 'HIJACK-1' },
    });
    expect(await h.ingestor.ingest([delivered])).toEqual(['unmatched']);
    expect(await count('unmatched_checkpoint', `reason = 'unknown_label'`)).toBe(before + 1);
    const label = await h.labels.get(1, id);
    expect(label).toMatchObject({
      carrier: 'DHL',
      tracking_courier: null,
      tracking_number: null,
      status: S.InformationReceived,
    });
    // The label's own carrier is heard.
    expect(
      await h.ingestor.ingest([{ ...delivered, carrier_code: 'DHL', allocation: undefined }]),
    ).toEqual(['recorded']);
    expect((await h.labels.get(1, id)).status).toBe(S.Delivered);
  });

  it('normalises with the carrier tables and keeps an unknown text as the description', async () => {
    const id = await h.createLabel(1, { service_code: 'UPS-STANDARD', inco_term: 'DAP' });
    await h.ingestor.ingest([
      aCarrierEvent({
        label_id: id,
        carrier_code: 'UPS',
        event_code: 'X',
        description: 'The receiver was not available for delivery.',
        event_time: '2026-05-02T10:00:00Z',
      }),
      aCarrierEvent({
        label_id: id,
        carrier_code: 'UPS',
        event_code: 'ZZ',
        description: 'Statusmeldung 17',
        event_time: '2026-05-02T11:00:00Z',
      }),
    ]);
    const { checkpoints } = await h.tracking.labelTracking(1, id);
    expect(checkpoints.slice(0, 2)).toEqual([
      expect.objectContaining({ status: S.Unknown, description: 'Statusmeldung 17' }),
      expect.objectContaining({ status: S.DeliveryAttemptFailed }),
    ]);
  });

  it('keeps delivered_with_exception, disposed and expired apart from exception', async () => {
    const id = await h.createLabel();
    await h.ingestor.ingest([
      aCarrierEvent({
        label_id: id,
        event_code: 'CD',
        description: 'Clearance delay',
        event_time: '2026-05-02T10:00:00Z',
      }),
      aCarrierEvent({
        label_id: id,
        event_code: 'DD',
        description: 'Delivered damaged',
        event_time: '2026-05-03T10:00:00Z',
      }),
    ]);
    const label = await h.labels.get(1, id);
    expect(label).toMatchObject({
      status: S.DeliveredWithException,
      delivered_time: '2026-05-03T10:00:00.000Z',
    });
  });
});
