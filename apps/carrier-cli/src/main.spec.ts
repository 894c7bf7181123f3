import { eventFromArgs } from './main';

describe('carrier-event CLI', () => {
  const now = new Date('2026-05-02T08:00:00.000Z');

  it('builds a carrier event from its options', () => {
    expect(
      eventFromArgs(
        [
          '--carrier',
          'DHL',
          '--label',
          '12',
          '--code',
          'OK',
          '--text',
          'Delivered',
          '--location',
          'Berlin, DE',
        ],
        now,
      ),
    ).toEqual({
      carrier_code: 'DHL',
      label_id: 12,
      event_code: 'OK',
      description: 'Delivered',
      location: 'Berlin, DE',
      event_time: '2026-05-02T08:00:00.000Z',
    });
  });

  it('allocates a tracking number with --allocate', () => {
    expect(
      eventFromArgs(
        [
          '--carrier',
          'UPS',
          '--label',
          '3',
          '--code',
          'M',
          '--text',
          'Label created',
          '--allocate',
          '1Z9',
          '--time',
          '2026-05-02T10:00:00+02:00',
        ],
        now,
      ),
    ).toMatchObject({
      event_time: '2026-05-02T10:00:00+02:00',
      allocation: { tracking_courier: 'UPS', tracking_number: '1Z9' },
    });
  });

  it('refuses an event the contract refuses, naming the fields', () => {
    expect(() =>
      eventFromArgs(
        ['--carrier', 'dhl', '--code', 'OK', '--text', 'x', '--time', '2026-05-02T10:00:00'],
        now,
      ),
    ).toThrow(
      /carrier_code must be a carrier code.*label_id is required.*event_time must be an ISO 8601 date-time with its zone/,
    );
    expect(() => eventFromArgs(['--carrier'], now)).toThrow('--carrier needs a value');
  });
});
