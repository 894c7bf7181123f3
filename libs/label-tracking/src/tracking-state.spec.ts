import { CheckpointStatus as S } from '@consign/contracts';
import {
  CONSIGN_CARRIER,
  CheckpointFact,
  CheckpointIdentity,
  TrackingSummary,
  checkpointKey,
  detailsOf,
  foldCheckpoints,
  withoutDuplicates,
} from './tracking-state';

const at = (time: string) => new Date(`2026-05-${time}Z`);
const created: TrackingSummary = {
  status: S.InformationReceived,
  statusAt: at('01T08:00:00'),
  lastEventAt: at('01T08:00:00'),
  outboundTime: null,
  deliveredTime: null,
};
const carrier = (time: string, status: S): CheckpointFact => ({
  eventTime: at(time),
  status,
  carrierCode: 'DHL',
});

describe('foldCheckpoints', () => {
  const lifecycle = [
    carrier('02T09:00:00', S.InTransit),
    carrier('02T18:00:00', S.InTransit),
    carrier('03T07:30:00', S.OutForDelivery),
    carrier('03T12:00:00', S.Delivered),
  ];

  it('follows a lifecycle: latest status, outbound at the first transit, delivered at delivery', () => {
    expect(foldCheckpoints(created, lifecycle)).toEqual({
      status: S.Delivered,
      statusAt: at('03T12:00:00'),
      lastEventAt: at('03T12:00:00'),
      outboundTime: at('02T09:00:00'),
      deliveredTime: at('03T12:00:00'),
    });
  });

  it('lands out-of-order events in time order: any arrival order gives the same summary', () => {
    const expected = foldCheckpoints(created, lifecycle);
    for (const order of [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]) {
      expect(
        foldCheckpoints(
          created,
          order.map((i) => lifecycle[i]),
        ),
      ).toEqual(expected);
    }
  });

  it('folds batch by batch to the same result as all at once', () => {
    const first = foldCheckpoints(created, [lifecycle[3], lifecycle[0]]);
    expect(foldCheckpoints(first, [lifecycle[2], lifecycle[1]])).toEqual(
      foldCheckpoints(created, lifecycle),
    );
  });

  it('keeps the latest status when an older event arrives late', () => {
    const delivered = foldCheckpoints(created, lifecycle);
    const late = foldCheckpoints(delivered, [carrier('02T20:00:00', S.Exception)]);
    expect(late.status).toBe(S.Delivered);
    expect(late.lastEventAt).toEqual(at('03T12:00:00'));
  });

  it('lets the later arrival win between checkpoints of the same time', () => {
    const result = foldCheckpoints(created, [
      carrier('02T09:00:00', S.InTransit),
      carrier('02T09:00:00', S.Exception),
    ]);
    expect(result.status).toBe(S.Exception);
  });

  it('keeps delivered_time once delivered, moving it to a later delivery only', () => {
    const delivered = foldCheckpoints(created, lifecycle);
    expect(foldCheckpoints(delivered, [carrier('04T09:00:00', S.Exception)]).deliveredTime).toEqual(
      at('03T12:00:00'),
    );
    expect(
      foldCheckpoints(delivered, [carrier('04T09:00:00', S.DeliveredWithException)]),
    ).toMatchObject({ status: S.DeliveredWithException, deliveredTime: at('04T09:00:00') });
  });

  it('sets no delivered_time for exception, disposed or a failed attempt', () => {
    const result = foldCheckpoints(created, [
      carrier('02T09:00:00', S.DeliveryAttemptFailed),
      carrier('03T09:00:00', S.Exception),
      carrier('04T09:00:00', S.Disposed),
    ]);
    expect(result).toMatchObject({ status: S.Disposed, deliveredTime: null, outboundTime: null });
  });

  it('does not move the expiry clock for checkpoints Consign writes itself', () => {
    const expired = foldCheckpoints(created, [
      { eventTime: at('31T08:00:00'), status: S.Expired, carrierCode: CONSIGN_CARRIER },
    ]);
    expect(expired).toMatchObject({ status: S.Expired, lastEventAt: created.lastEventAt });
  });

  it('leaves the summary it was given untouched', () => {
    const copy = { ...created };
    foldCheckpoints(created, lifecycle);
    expect(created).toEqual(copy);
  });
});

describe('dedupe', () => {
  const event: CheckpointIdentity = {
    trackingId: 7,
    eventTime: at('02T09:00:00'),
    carrierCode: 'DHL',
    eventCode: 'PL',
    details: 'Leipzig, DE',
  };

  it('sees the same parcel, time, carrier, code and location as one checkpoint', () => {
    expect(checkpointKey({ ...event, eventTime: new Date('2026-05-02T11:00:00+02:00') })).toBe(
      checkpointKey(event),
    );
    expect(withoutDuplicates([event, { ...event }, { ...event, details: 'Halle, DE' }])).toEqual([
      event,
      { ...event, details: 'Halle, DE' },
    ]);
  });

  it.each<[string, Partial<CheckpointIdentity>]>([
    ['another parcel', { trackingId: 8 }],
    ['another time', { eventTime: at('02T09:00:01') }],
    ['another carrier', { carrierCode: 'UPS' }],
    ['another code', { eventCode: 'DF' }],
    ['another location', { details: 'Halle, DE' }],
    ['no location', { details: null }],
  ])('tells apart %s', (_case, change) => {
    expect(checkpointKey({ ...event, ...change })).not.toBe(checkpointKey(event));
  });

  it('keeps the first of duplicates, in order', () => {
    const a = { ...event, eventCode: 'A' };
    const b = { ...event, eventCode: 'B' };
    expect(withoutDuplicates([a, b, { ...a }, b])).toEqual([a, b]);
  });

  it('normalises a location to details: trimmed, null when empty', () => {
    expect(detailsOf('  Leipzig, DE ')).toBe('Leipzig, DE');
    expect(detailsOf('  ')).toBeNull();
    expect(detailsOf(undefined)).toBeNull();
    expect(detailsOf(null)).toBeNull();
  });
});
