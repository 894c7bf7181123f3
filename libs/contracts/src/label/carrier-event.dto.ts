import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { NestedType } from '../common/contract-metadata';
import { NestedList } from '../common/nested-list';
import { IsId, IsZonedDateTime } from '../common/formats';
import { IsCarrierCode } from './carrier-code';
import { TRACKING_LIMITS } from './label.limits';

const HOUR_MS = 3_600_000;

/**
 * A date-time no later than `hours` ahead of now (a value that is not one is left to the format
 * check).
 */
function IsNotFarAhead(hours: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotFarAhead',
      constraints: [hours],
      validator: {
        validate: (value: unknown) => {
          const time = typeof value === 'string' ? Date.parse(value) : NaN;
          return Number.isNaN(time) || time <= Date.now() + hours * HOUR_MS;
        },
        defaultMessage: () => `$property must not be more than ${hours} hours ahead of now`,
      },
    },
    options,
  );
}

/** A carrier assigning its courier and tracking number to a label. */
export class CarrierAllocationDto {
  /** Carrier code of the courier that carries the parcel (the label's `tracking_courier`). */
  @IsCarrierCode()
  tracking_courier!: string;

  /** The carrier's tracking number (the label's `tracking_number`). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.tracking_number)
  tracking_number!: string;
}

/**
 * One checkpoint a carrier reports for a parcel, as a carrier's webhook sends it
 * (`POST /2026-05/cloud/carrier/{carrier_code}/events`); the carrier is the one in the path.
 * The parcel is named by its Consign `label_id` or by the `tracking_number` allocated to it.
 */
export class CarrierEventDto {
  /**
   * The Consign label id (a shipment's id for an order's shipment). Required unless
   * `tracking_number` is given; required with `allocation`.
   */
  @ValidateIf(
    (event: CarrierEventDto) =>
      event.label_id != null || event.tracking_number == null || event.allocation != null,
  )
  @IsId()
  label_id?: number;

  /** The carrier's tracking number of the parcel; required unless `label_id` is given. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.tracking_number)
  tracking_number?: string;

  /** The carrier's own event code (e.g. DHL `OK`, UPS `FS`); normalised to a checkpoint status. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.event_code)
  event_code!: string;

  /** The carrier's event text; returned as the checkpoint's `description`. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.description)
  description!: string;

  /** Where it happened (e.g. "Leipzig, DE"); returned as the checkpoint's `details`. */
  @IsOptional()
  @IsString()
  @MaxLength(TRACKING_LIMITS.location)
  location?: string | null;

  /**
   * When it happened, ISO 8601 with its zone (`2026-05-20T09:30:00+02:00`); returned in UTC. At
   * most 168 hours (a week) ahead of now.
   */
  @IsZonedDateTime()
  @IsNotFarAhead(TRACKING_LIMITS.event_time_ahead_hours)
  event_time!: string;

  /** The carrier allocates its courier and tracking number to the label (`label_id` required). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CarrierAllocationDto)
  allocation?: CarrierAllocationDto;
}

/**
 * `carrier.checkpoint.v1`: what carrier adapters publish on the bus, one message per event, keyed
 * by the label id (or, without one, the tracking number) so one parcel's events stay in order.
 */
export class CarrierCheckpointEvent extends CarrierEventDto {
  /** The carrier reporting the event. */
  @IsCarrierCode()
  carrier_code!: string;
}

/** Body of POST /2026-05/cloud/carrier/{carrier_code}/events. */
export class CarrierEventsRequest {
  /** The carrier's events, in any order; at most 1000. */
  @NestedList(
    () => CarrierEventDto,
    ArrayMinSize(1),
    ArrayMaxSize(TRACKING_LIMITS.events_per_request),
  )
  events!: CarrierEventDto[];
}

/** What became of a batch of carrier events, once persisted. */
export class CarrierEventsResult {
  /** Events received. */
  received!: number;
  /** New checkpoints recorded. */
  recorded!: number;
  /** Events already recorded (same parcel, carrier, event code, time and location): ignored. */
  duplicates!: number;
  /**
   * Events for no known label (an unknown `label_id`, or a tracking number not allocated yet):
   * kept, and attached when the tracking number is allocated.
   */
  unmatched!: number;
}
