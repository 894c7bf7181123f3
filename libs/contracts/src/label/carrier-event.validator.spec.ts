import { validateContract } from '../common/validation';
import { setPath, text } from '../catalog/contract-test-kit';
import { validateIngestCarrierEventsCommand } from '../bus/label.commands';
import { CarrierCheckpointEvent, CarrierEventsRequest } from './carrier-event.dto';
import {
  validateCarrierCheckpointEvent,
  validateCarrierEventsRequest,
} from './carrier-event.validator';

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

/** Values to put at a path: valid ones, invalid ones, and edge cases of each rule. */
const VARIANTS: Record<string, unknown[]> = {
  carrier_code: ['UPS', 'A', text(32, 'A'), text(33, 'A'), 'dhl', '', null, undefined, 7, 'D H L'],
  label_id: [1, 2 ** 40, 0, -1, 1.5, '12', null, undefined, [], {}, Number.NaN],
  tracking_number: ['1Z', text(255), text(256), '', ' ', null, undefined, 12, ['x']],
  event_code: ['OK', text(64), text(65), '', null, undefined, 1, {}],
  description: ['Delivered', text(255), text(256), '', null, undefined, false],
  location: ['Berlin', '', text(255), text(256), null, undefined, 3, ['x']],
  event_time: [
    '2026-05-02T10:00:00Z',
    '2026-05-02T10:00:00.123-05:00',
    '2026-05-02T10:00:00+0530',
    '2026-05-02T10:00Z',
    '2026-05-02T10:00:00',
    '2026-05-02T10:00:00+01',
    '2026-02-30T10:00:00Z',
    '2026-05-02',
    '2026-05-02 10:00:00Z',
    '',
    null,
    undefined,
    1777716000000,
  ],
  allocation: [
    { tracking_courier: 'UPS', tracking_number: '1Z' },
    { tracking_courier: 'ups', tracking_number: '1Z' },
    { tracking_courier: 'UPS', tracking_number: '' },
    { tracking_courier: 'UPS' },
    { tracking_courier: 'UPS', tracking_number: '1Z', extra: true },
    [],
    'DHL',
    null,
    undefined,
  ],
};

/** Every single change, and the combinations that decide whether a label id is required. */
function cases(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [anEvent()];
  for (const [path, values] of Object.entries(VARIANTS))
    for (const value of values) out.push(setPath(anEvent(), path, value));
  for (const label of [12, null, undefined])
    for (const number of ['JD1', null, undefined])
      for (const allocation of [
        { tracking_courier: 'DHL', tracking_number: 'JD1' },
        null,
        undefined,
      ]) {
        const event = anEvent();
        setPath(event, 'label_id', label);
        setPath(event, 'tracking_number', number);
        setPath(event, 'allocation', allocation);
        out.push(event);
      }
  out.push({ ...anEvent(), unknown_field: 'dropped' });
  return out;
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('the fast carrier event checks', () => {
  it.each(cases().map((c) => [JSON.stringify(c), c]))(
    'judge %s as class-validator does',
    (_name, event) => {
      const slow = validateContract(CarrierCheckpointEvent, event);
      const fast = validateCarrierCheckpointEvent(event);
      expect(fast.ok).toBe(slow.ok);
      if (fast.ok && slow.ok) expect(plain(fast.value)).toEqual(plain(slow.value));
      else if (!fast.ok && !slow.ok) expect(fast.errors).toEqual(slow.errors);
    },
  );

  it('judge webhook bodies as class-validator does, at every list size', () => {
    const webhook = () => {
      const { carrier_code: _carrier, ...event } = anEvent();
      return event;
    };
    for (const events of [
      [],
      [webhook()],
      Array.from({ length: 1000 }, webhook),
      Array.from({ length: 1001 }, webhook),
      [webhook(), { ...webhook(), event_time: 'yesterday' }],
      'not a list',
    ]) {
      const body = { events };
      const slow = validateContract(CarrierEventsRequest, body);
      const fast = validateCarrierEventsRequest(body);
      expect(fast.ok).toBe(slow.ok);
      if (fast.ok && slow.ok) expect(plain(fast.value)).toEqual(plain(slow.value));
      const command = validateIngestCarrierEventsCommand({ carrier_code: 'DHL', events });
      expect(command.ok).toBe(slow.ok);
    }
    expect(
      validateIngestCarrierEventsCommand({ carrier_code: 'dhl', events: [webhook()] }),
    ).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('carrier_code')],
    });
  });

  it('leave a length only a Unicode-aware count can judge to class-validator', () => {
    // 255 emoji are 510 UTF-16 units but 255 characters for class-validator's MaxLength.
    const event = { ...anEvent(), description: '📦'.repeat(255) };
    expect(validateContract(CarrierCheckpointEvent, event).ok).toBe(true);
    expect(validateCarrierCheckpointEvent(event).ok).toBe(true);
  });

  it('are at least ten times faster than class-validator on valid events', () => {
    const events = Array.from({ length: 2000 }, (_, i) => ({ ...anEvent(), label_id: i + 1 }));
    const time = (fn: (e: unknown) => unknown) => {
      const started = performance.now();
      for (const event of events) fn(event);
      return performance.now() - started;
    };
    time(validateCarrierCheckpointEvent);
    const slow = time((e) => validateContract(CarrierCheckpointEvent, e));
    const fast = time(validateCarrierCheckpointEvent);
    expect(fast * 10).toBeLessThan(slow);
  });
});
