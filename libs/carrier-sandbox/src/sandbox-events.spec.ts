import { CarrierCheckpointEvent, validateContract } from '@consign/contracts';
import { CARRIER_VOCABULARIES, carrierOfService } from './carrier-vocabulary';
import { eventOfStep, isLastStep, keyOf, zonedTime } from './sandbox-events';
import {
  SCENARIO_STEPS,
  SandboxScenario,
  parseScenarioWeights,
  scenarioOf,
} from './sandbox-script';

const parcel = (step: number, scenario = SandboxScenario.Delivered) => ({
  id: 42,
  carrierCode: 'DHL',
  trackingNumber: null,
  byTrackingNumber: false,
  scenario,
  step,
  nextAt: new Date('2026-05-02T08:00:00.000Z'),
});

describe('sandbox events', () => {
  it('writes local times with their zone', () => {
    const time = new Date('2026-05-02T08:00:00.000Z');
    expect(zonedTime(time, { name: 'x', offset: 120 })).toBe('2026-05-02T10:00:00+02:00');
    expect(zonedTime(time, { name: 'x', offset: -300 })).toBe('2026-05-02T03:00:00-05:00');
    expect(zonedTime(time, { name: 'x', offset: 0 })).toBe('2026-05-02T08:00:00+00:00');
    expect(zonedTime(new Date('2026-05-02T08:00:00.250Z'), { name: 'x', offset: 60 })).toBe(
      '2026-05-02T09:00:00.250+01:00',
    );
    expect(new Date(zonedTime(time, { name: 'x', offset: -240 })).getTime()).toBe(time.getTime());
  });

  it('allocates the carrier’s tracking number with the first event', () => {
    expect(eventOfStep(parcel(0))).toEqual({
      carrier_code: 'DHL',
      label_id: 42,
      event_code: 'SD',
      description: 'Shipment information received',
      location: null,
      event_time: '2026-05-02T09:00:00+01:00',
      allocation: { tracking_courier: 'DHL', tracking_number: '3000000426' },
    });
    expect(eventOfStep({ ...parcel(0), trackingNumber: '1234' })).not.toHaveProperty('allocation');
  });

  it('reports an order’s shipment by its tracking number', () => {
    const shipment = { ...parcel(0), trackingNumber: '1Z999', byTrackingNumber: true };
    const event = eventOfStep(shipment);
    expect(event).toMatchObject({ tracking_number: '1Z999', event_code: 'SD' });
    expect(event).not.toHaveProperty('label_id');
    expect(event).not.toHaveProperty('allocation');
    expect(keyOf(shipment)).toBe('1Z999');
    expect(keyOf(parcel(0))).toBe('42');
  });

  it('gives the same event for the same step (a republished step is a duplicate)', () => {
    expect(eventOfStep(parcel(3))).toEqual(eventOfStep(parcel(3)));
  });

  it.each(Object.values(SandboxScenario))(
    '%s: every event is a valid carrier event',
    (scenario) => {
      const steps = SCENARIO_STEPS[scenario];
      for (const carrier of [...Object.keys(CARRIER_VOCABULARIES), 'ACME']) {
        steps.forEach((_step, i) => {
          const event = eventOfStep({ ...parcel(i, scenario), carrierCode: carrier });
          const result = validateContract(CarrierCheckpointEvent, event);
          expect(result.ok ? [] : result.errors).toEqual([]);
        });
      }
      expect(isLastStep(parcel(steps.length - 1, scenario))).toBe(true);
      expect(isLastStep(parcel(steps.length - 2, scenario))).toBe(false);
    },
  );

  it('picks scenarios in proportion to their weights, stably per parcel', () => {
    const weights = parseScenarioWeights('delivered:3,returned:1');
    const picks = Array.from({ length: 4000 }, (_, id) => scenarioOf(id + 1, weights));
    const returned = picks.filter((s) => s === SandboxScenario.Returned).length;
    expect(returned / picks.length).toBeGreaterThan(0.2);
    expect(returned / picks.length).toBeLessThan(0.3);
    expect(scenarioOf(17, weights)).toBe(scenarioOf(17, weights));
    expect(scenarioOf(17, parseScenarioWeights('failed_attempt'))).toBe(
      SandboxScenario.FailedAttempt,
    );
  });

  it('refuses an unknown scenario or a bad weight', () => {
    expect(() => parseScenarioWeights('delivered:2,lost:1')).toThrow('unknown scenario "lost"');
    expect(() => parseScenarioWeights('delivered:0')).toThrow('positive integer');
  });

  it('finds the carrier of a service code', () => {
    expect(carrierOfService('DHL-EXPRESS')).toBe('DHL');
    expect(carrierOfService('usps-ground-adv')).toBe('USPS');
    expect(carrierOfService('!!')).toBe('SANDBOX');
  });
});
