import { CarrierCheckpointEvent } from '@consign/contracts';
import { SandboxPlace, vocabularyOf } from './carrier-vocabulary';
import { SCENARIO_STEPS, SandboxScenario, SandboxStep } from './sandbox-script';

/** A simulated parcel, as the sandbox keeps it. */
export interface SandboxParcel {
  id: number;
  carrierCode: string;
  trackingNumber: string | null;
  /** An order's shipment: known to the carrier by its tracking number, not by a label id. */
  byTrackingNumber: boolean;
  scenario: SandboxScenario;
  step: number;
  /** When the next step happens: it becomes that checkpoint's event time. */
  nextAt: Date;
}

/**
 * A time as the carrier's local time with its zone: `2026-05-02T10:00:00+02:00`, with
 * milliseconds when it has any (a fast sandbox clock steps more than once a second).
 */
export function zonedTime(time: Date, place: SandboxPlace): string {
  const iso = new Date(time.getTime() + place.offset * 60_000).toISOString();
  const local = time.getUTCMilliseconds() === 0 ? iso.slice(0, 19) : iso.slice(0, 23);
  const sign = place.offset < 0 ? '-' : '+';
  const minutes = Math.abs(place.offset);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

const AT_ORIGIN = [SandboxStep.PickedUp, SandboxStep.DepartedOrigin, SandboxStep.Returned];
const AT_HUB = [SandboxStep.ArrivedHub, SandboxStep.CustomsHeld, SandboxStep.CustomsReleased];

/** The Kafka key of a parcel's events: its label id, or its tracking number. */
export function keyOf(parcel: SandboxParcel): string {
  return parcel.byTrackingNumber && parcel.trackingNumber
    ? parcel.trackingNumber
    : String(parcel.id);
}

/**
 * The carrier event of a parcel's current step, in the carrier's codes, words and local time.
 * Deterministic (the same step gives the same event), so publishing a step twice after a crash
 * is a duplicate the consumer ignores.
 */
export function eventOfStep(parcel: SandboxParcel): CarrierCheckpointEvent {
  const vocabulary = vocabularyOf(parcel.carrierCode);
  const step = SCENARIO_STEPS[parcel.scenario][parcel.step];
  const wording = vocabulary.steps[step];
  const [origin, hub, destination] = vocabulary.places;
  const place = AT_ORIGIN.includes(step) ? origin : AT_HUB.includes(step) ? hub : destination;
  const trackingNumber = parcel.trackingNumber ?? vocabulary.trackingNumber(parcel.id);
  return {
    carrier_code: parcel.carrierCode,
    ...(parcel.byTrackingNumber ? { tracking_number: trackingNumber } : { label_id: parcel.id }),
    event_code: wording.code,
    description: wording.text,
    location: step === SandboxStep.Allocated ? null : place.name,
    event_time: zonedTime(parcel.nextAt, step === SandboxStep.Allocated ? origin : place),
    ...(step === SandboxStep.Allocated && parcel.trackingNumber === null
      ? { allocation: { tracking_courier: parcel.carrierCode, tracking_number: trackingNumber } }
      : {}),
  };
}

/** Whether the parcel's current step is its last. */
export function isLastStep(parcel: SandboxParcel): boolean {
  return parcel.step >= SCENARIO_STEPS[parcel.scenario].length - 1;
}
