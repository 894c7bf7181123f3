import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsId, IsIsoDateTime } from '../common/formats';
import { LABEL_LIMITS, TRACKING_LIMITS } from '../label/label.limits';
import { event } from './definition';

/** `label.label.created.v1`: a merchant created a label; a carrier (or the sandbox) takes it from here. */
export class LabelCreatedEvent {
  @IsId()
  label_id!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_LIMITS.service.service_code)
  service_code!: string;

  /** The carrier the service belongs to; null when the service names none. */
  @IsOptional()
  @IsString()
  @MaxLength(TRACKING_LIMITS.carrier_code)
  carrier_code!: string | null;
}

/**
 * `label.label.voided.v1`: a merchant voided a label the carrier had not scanned; its carrier (or
 * the sandbox) cancels the shipment and stops reporting it.
 */
export class LabelVoidedEvent {
  @IsId()
  label_id!: number;

  /** The label's carrier; null when its service names none. */
  @IsOptional()
  @IsString()
  @MaxLength(TRACKING_LIMITS.carrier_code)
  carrier_code!: string | null;

  /** Its tracking number; null for a label the carrier never numbered. */
  @IsOptional()
  @IsString()
  @MaxLength(TRACKING_LIMITS.tracking_number)
  tracking_number!: string | null;
}

/**
 * `label.shipment.created.v1`: an order left the warehouse with a carrier and tracking number
 * (order.shipped.v1); label-tracking follows it as a parcel. Carriers (or the sandbox) report it
 * by its tracking number.
 */
export class ShipmentCreatedEvent {
  @IsId()
  shipment_id!: number;

  @IsId()
  order_id!: number;

  /** The parcel: what carrier events' `label_id` would name. */
  @IsId()
  tracking_id!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.carrier_code)
  carrier_code!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.tracking_number)
  tracking_number!: string;
}

/**
 * `label.shipment.delivered.v1`: a shipment of an order was delivered (`delivered` or
 * `delivered_with_exception`); `all_delivered` when every shipment of the order now is, which
 * makes order-service complete the order.
 */
export class ShipmentDeliveredEvent {
  @IsId()
  order_id!: number;

  @IsId()
  shipment_id!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.carrier_code)
  tracking_courier!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(TRACKING_LIMITS.tracking_number)
  tracking_number!: string;

  /** ISO 8601 UTC. */
  @IsIsoDateTime()
  delivered_time!: string;

  @IsBoolean()
  all_delivered!: boolean;
}

/**
 * `label.tracking.updated.v1`: new checkpoints were recorded for a label (its tracking as
 * `GET /2026-05/cloud/label/tracking/{id}` answers changed); for webhooks.
 */
export class LabelTrackingUpdatedEvent {
  @IsId()
  label_id!: number;
}

/**
 * `label.order_tracking.updated.v1`: new checkpoints were recorded for a shipment of an order
 * (its order tracking changed); for webhooks.
 */
export class OrderTrackingUpdatedEvent {
  @IsId()
  order_id!: number;
}

/** label-tracking-service's domain events. */
export const LabelEvents = {
  Created: event('label.label.created.v1', LabelCreatedEvent),
  Voided: event('label.label.voided.v1', LabelVoidedEvent),
  ShipmentCreated: event('label.shipment.created.v1', ShipmentCreatedEvent),
  ShipmentDelivered: event('label.shipment.delivered.v1', ShipmentDeliveredEvent),
  TrackingUpdated: event('label.tracking.updated.v1', LabelTrackingUpdatedEvent),
  OrderTrackingUpdated: event('label.order_tracking.updated.v1', OrderTrackingUpdatedEvent),
};
