import { CarrierCheckpointEvent, CarrierEventsRequest } from './carrier-event.dto';
import { contractCheck, errorsFor, setPath, text, valueOf } from '@consign/testing/fixtures';

function anEvent(): Record<string, unknown> {
  return {
    carrier_code: 'DHL',
    label_id: 12,
    tracking_number: 'JD0001',
    event_code: 'PL',
    description: 'Processed at LEIPZIG - GERMANY',
    location: 'Leipzig, DE',
    event_time: '2026-05-02T10:00:00+02:00',
    allocation: { tracking_courier: 'DHL', tracking_number: 'JD0001' },
  };
}

const { errors, rejectedAt, withValue } = contractCheck(CarrierCheckpointEvent, anEvent);
const without = (...paths: string[]) =>
  paths.reduce((event, path) => setPath(event, path, undefined), anEvent());

describe('CarrierCheckpointEvent (carrier.checkpoint.v1)', () => {
  it('accepts a complete event and keeps only known properties', () => {
    const value = valueOf(CarrierCheckpointEvent, { ...anEvent(), extra: true });
    expect(value).not.toHaveProperty('extra');
    expect(value).toMatchObject({ label_id: 12, allocation: { tracking_number: 'JD0001' } });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a label id alone', without('tracking_number', 'allocation')],
    ['a tracking number alone', without('label_id', 'allocation')],
    ['a tracking number with a null label id', setPath(without('allocation'), 'label_id', null)],
    ['no location', without('location')],
    ['a null location', withValue('location', null)],
    ['an empty location', withValue('location', '')],
  ])('accepts %s', (_case, event) => {
    expect(errors(event)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'neither a label id nor a tracking number',
      without('label_id', 'tracking_number', 'allocation'),
    ],
    [
      'a null tracking number and no label id',
      setPath(without('label_id', 'allocation'), 'tracking_number', null),
    ],
    ['an allocation without a label id', without('label_id')],
  ])('requires label_id with %s', (_case, event) => {
    expect(rejectedAt(event, 'label_id')).toEqual(['label_id is required']);
  });

  it.each([0, -3, 1.5, '12'])('refuses the label id %p', (id) => {
    expect(rejectedAt(withValue('label_id', id), 'label_id').length).toBeGreaterThan(0);
  });

  it.each([
    '2026-05-02T10:00:00Z',
    '2026-05-02T10:00:00.123-05:00',
    '2026-05-02T10:00:00+0530',
    '2026-05-02T10:00Z',
  ])('accepts the event time %s', (time) => {
    expect(errors(withValue('event_time', time))).toEqual([]);
  });

  it('refuses an event dated more than a week ahead of now, as a broken feed', () => {
    const ahead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    expect(errors(withValue('event_time', ahead(6 * 24)))).toEqual([]);
    for (const time of [ahead(8 * 24), '9999-12-31T23:59:59Z', '9999-12-31T23:59:59+14:00'])
      expect(rejectedAt(withValue('event_time', time), 'event_time')).toEqual([
        'event_time must not be more than 168 hours ahead of now',
      ]);
  });

  it.each([
    '2026-05-02T10:00:00',
    '2026-05-02T10:00:00+01',
    '2026-02-30T10:00:00Z',
    '2026-05-02',
    '2026-05-02 10:00:00Z',
    1777716000000,
  ])('refuses the event time %p: the zone is required', (time) => {
    expect(rejectedAt(withValue('event_time', time), 'event_time')).toEqual([
      'event_time must be an ISO 8601 date-time with its zone (yyyy-MM-ddTHH:mm:ss followed by Z or ±hh:mm)',
    ]);
  });

  it.each(['dhl', 'D H L', '', text(33, 'A')])('refuses the carrier code %p', (code) => {
    expect(rejectedAt(withValue('carrier_code', code), 'carrier_code').length).toBeGreaterThan(0);
  });

  it.each<[string, number]>([
    ['tracking_number', 255],
    ['event_code', 64],
    ['description', 255],
    ['location', 255],
    ['allocation.tracking_number', 255],
  ])('%s: at most %i characters', (path, max) => {
    expect(errors(withValue(path, text(max)))).toEqual([]);
    expect(rejectedAt(withValue(path, text(max + 1)), path)).toEqual([
      `${path} must be shorter than or equal to ${max} characters`,
    ]);
  });

  it.each(['event_code', 'description', 'event_time'])('requires %s', (path) => {
    expect(rejectedAt(withValue(path, undefined), path)).toEqual([`${path} is required`]);
  });

  it('refuses an empty event code or text', () => {
    expect(rejectedAt(withValue('event_code', ''), 'event_code')).toContain(
      'event_code should not be empty',
    );
    expect(rejectedAt(withValue('description', ''), 'description')).toContain(
      'description should not be empty',
    );
  });

  it('checks the allocation', () => {
    expect(
      rejectedAt(withValue('allocation.tracking_courier', 'dhl'), 'allocation.tracking_courier')
        .length,
    ).toBeGreaterThan(0);
    expect(rejectedAt(withValue('allocation', 'JD1'), 'allocation')).toContain(
      'allocation must be an object',
    );
  });
});

describe('CarrierEventsRequest (the webhook body)', () => {
  const webhookEvent = () => {
    const { carrier_code: _carrier, ...event } = anEvent();
    return event;
  };

  it('takes 1 to 1000 events, without a carrier code (the path names the carrier)', () => {
    expect(errorsFor(CarrierEventsRequest, { events: [webhookEvent()] })).toEqual([]);
    expect(
      errorsFor(CarrierEventsRequest, { events: Array.from({ length: 1000 }, webhookEvent) }),
    ).toEqual([]);
    expect(errorsFor(CarrierEventsRequest, { events: [] })).toEqual([
      'events must contain at least 1 elements',
    ]);
    expect(
      errorsFor(CarrierEventsRequest, { events: Array.from({ length: 1001 }, webhookEvent) }),
    ).toEqual(['events must contain no more than 1000 elements']);
  });

  it('names the offending event and field', () => {
    expect(
      errorsFor(CarrierEventsRequest, {
        events: [webhookEvent(), { ...webhookEvent(), event_time: 'yesterday' }],
      }),
    ).toEqual([
      'events[1].event_time must be an ISO 8601 date-time with its zone (yyyy-MM-ddTHH:mm:ss followed by Z or ±hh:mm)',
    ]);
  });
});
