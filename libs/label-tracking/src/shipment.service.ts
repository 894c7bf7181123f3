import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  CommonErrorCode,
  LabelEvent,
  OrderShippedEvent,
  ShipOrderRequest,
  ShipmentParcelView,
} from '@consign/contracts';
import { DomainError } from '@consign/core';
import { Outbox } from '@consign/messaging';
import { labelTrackingDatabase } from './label-tracking.database';
import { announceDeliveries } from './shipment-deliveries';
import { ShipmentRepository } from './shipment.repository';
import { ParcelHolder, TrackingRepository } from './tracking.repository';

export const ORDER_SHIPPED_CHECKPOINT = {
  eventCode: 'ORDER_SHIPPED',
  description: 'Shipment information received: shipped from the warehouse.',
} as const;

/** A shipment's parcel, for the carrier events that may have waited for its number. */
export interface ShippedParcel {
  courier: string;
  number: string;
}

/**
 * Orders' shipments: when an order leaves the warehouse (order.shipped.v1) its carrier and
 * tracking number become a tracked parcel — the label the warehouse used when the merchant
 * created one with that carrier and number, a new parcel otherwise.
 */
@Injectable()
export class ShipmentService {
  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    private readonly shipments: ShipmentRepository,
    private readonly parcels: TrackingRepository,
  ) {}

  /**
   * The parcel an order of the merchant would ship as, asked before the ship is sent: a number
   * another merchant's parcel holds, or a voided label's, is a Conflict (409) naming it. The same
   * rule refuses such a shipment when it comes (recordShipped), should the two cross.
   */
  async check(merchantId: number, shipment: ShipOrderRequest): Promise<ShipmentParcelView> {
    const { courier, number } = parcelOf(shipment);
    const existing = await this.parcels.parcelByNumber(this.dataSource, courier, number, false);
    const refusal = refusalOf(existing, merchantId, courier, number);
    if (refusal)
      throw new DomainError(CommonErrorCode.Conflict, `${refusal}: an order cannot ship with it.`);
    return { tracking_courier: courier, tracking_number: number, parcel_id: existing?.id ?? null };
  }

  /**
   * Records the shipment in the caller's (the inbox's) transaction and announces it; a parcel
   * already delivered is announced delivered too. Carrier codes are upper-case, as carrier
   * services name them (`PostNL` ships as `POSTNL`).
   */
  async recordShipped(
    manager: EntityManager,
    merchantId: number,
    event: OrderShippedEvent,
    shippedAt: Date,
  ): Promise<ShippedParcel> {
    const { courier, number } = parcelOf(event);
    const existing = await this.parcels.parcelByNumber(manager, courier, number, true);
    const refusal = refusalOf(existing, merchantId, courier, number);
    if (refusal)
      throw new DomainError(
        CommonErrorCode.Conflict,
        `${refusal}: order ${event.order_id} cannot ship with it`,
      );
    const trackingId =
      existing?.id ??
      (await this.parcels.insertAllocated(manager, {
        merchantId,
        courier,
        number,
        at: shippedAt,
        checkpoint: ORDER_SHIPPED_CHECKPOINT,
      }));
    const shipmentId = await this.shipments.insert(manager, {
      merchantId,
      orderId: event.order_id,
      trackingId,
      packages: event.packages,
      shippedAt,
    });
    if (shipmentId !== undefined) {
      await this.outbox.add(manager, LabelEvent.ShipmentCreated, {
        merchantId,
        aggregateId: event.order_id,
        payload: {
          shipment_id: shipmentId,
          order_id: event.order_id,
          tracking_id: trackingId,
          carrier_code: courier,
          tracking_number: number,
        },
      });
      await announceDeliveries(manager, this.outbox, this.shipments, [trackingId]);
    }
    return { courier, number };
  }
}

/** The carrier and number a shipment is tracked by: upper-case, trimmed. */
function parcelOf(shipment: Pick<ShipOrderRequest, 'carrier' | 'tracking_number'>): ShippedParcel {
  return {
    courier: shipment.carrier.trim().toUpperCase(),
    number: shipment.tracking_number.trim(),
  };
}

/**
 * Why an order of the merchant cannot ship with the number this parcel holds, or undefined: it is
 * another merchant's, or a voided label's (the carrier will not carry it, and its tracking has
 * ended).
 */
function refusalOf(
  existing: ParcelHolder | undefined,
  merchantId: number,
  courier: string,
  number: string,
): string | undefined {
  if (!existing) return undefined;
  if (existing.merchant_id !== merchantId)
    return `${courier} ${number} is another merchant's parcel`;
  if (existing.voided_at)
    return `${courier} ${number} is the number of label ${existing.id}, voided`;
  return undefined;
}
