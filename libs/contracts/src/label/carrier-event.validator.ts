import { Validated, validateContract } from '../common/validation';
import { isZonedDateTime } from '../common/formats';
import { isCarrierCode } from './carrier-code';
import {
  CarrierAllocationDto,
  CarrierCheckpointEvent,
  CarrierEventDto,
  CarrierEventsRequest,
} from './carrier-event.dto';
import { TRACKING_LIMITS } from './label.limits';

/*
 * The hot path of the carrier event contracts. Carrier events arrive by the hundred thousand and
 * class-validator spends ≈ 50 µs on one (measured: bench/checkpoint-throughput.bench.ts), while
 * these checks take about a microsecond. The DTO classes stay the contract: the checks accept only
 * what class-validator accepts (carrier-event.validator.spec.ts holds both to the same cases) and
 * return what it would (known properties only); anything else — an invalid event, or a string
 * whose length only class-validator's Unicode-aware count can judge — goes to validateContract,
 * which decides and writes the messages.
 */

const L = TRACKING_LIMITS;

/** A string class-validator's IsString + IsNotEmpty + MaxLength(max) surely accept. */
function isShortText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fastAllocation(value: unknown): CarrierAllocationDto | undefined {
  if (!isPlainObject(value)) return undefined;
  const { tracking_courier, tracking_number } = value;
  if (!isCarrierCode(tracking_courier) || !isShortText(tracking_number, L.tracking_number))
    return undefined;
  return { tracking_courier, tracking_number };
}

/** The event, with known properties only, when it is surely valid; otherwise undefined. */
function fastEvent(value: unknown, withCarrier: boolean): CarrierCheckpointEvent | undefined {
  if (!isPlainObject(value)) return undefined;
  const { carrier_code, label_id, tracking_number, event_code, description, location } = value;
  const { event_time, allocation } = value;
  if (withCarrier && !isCarrierCode(carrier_code)) return undefined;
  const labelRequired = label_id != null || tracking_number == null || allocation != null;
  if (labelRequired && !(Number.isInteger(label_id) && (label_id as number) >= 1)) return undefined;
  if (tracking_number != null && !isShortText(tracking_number, L.tracking_number)) return undefined;
  if (!isShortText(event_code, L.event_code) || !isShortText(description, L.description))
    return undefined;
  if (location != null && !(typeof location === 'string' && location.length <= L.location))
    return undefined;
  if (!isZonedDateTime(event_time)) return undefined;
  const checkedAllocation = allocation == null ? allocation : fastAllocation(allocation);
  if (checkedAllocation === undefined && allocation !== undefined) return undefined;
  const event: Record<string, unknown> = {};
  if (withCarrier) event.carrier_code = carrier_code;
  if (label_id !== undefined) event.label_id = label_id;
  if (tracking_number !== undefined) event.tracking_number = tracking_number;
  event.event_code = event_code;
  event.description = description;
  if (location !== undefined) event.location = location;
  event.event_time = event_time;
  if (allocation !== undefined) event.allocation = checkedAllocation;
  return event as unknown as CarrierCheckpointEvent;
}

/** `carrier.checkpoint.v1`, as validateContract(CarrierCheckpointEvent, value) would judge it. */
export function validateCarrierCheckpointEvent(value: unknown): Validated<CarrierCheckpointEvent> {
  const event = fastEvent(value, true);
  return event ? { ok: true, value: event } : validateContract(CarrierCheckpointEvent, value);
}

/** A list of webhook events (1 to 1000) with known properties only, when all are surely valid. */
export function fastCarrierEvents(value: unknown): CarrierEventDto[] | undefined {
  if (!Array.isArray(value) || value.length < 1 || value.length > L.events_per_request)
    return undefined;
  const events: CarrierEventDto[] = [];
  for (const item of value) {
    const event = fastEvent(item, false);
    if (!event) return undefined;
    events.push(event);
  }
  return events;
}

/** A webhook body, as validateContract(CarrierEventsRequest, value) would judge it. */
export function validateCarrierEventsRequest(value: unknown): Validated<CarrierEventsRequest> {
  const events = isPlainObject(value) ? fastCarrierEvents(value.events) : undefined;
  return events ? { ok: true, value: { events } } : validateContract(CarrierEventsRequest, value);
}
