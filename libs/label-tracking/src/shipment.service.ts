import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommonErrorCode, LabelEvent, OrderShippedEvent } from '@consign/contracts';
import { DomainError } from '@consign/core';
import { Outbox } from '@consign/messaging';
import { labelTrackingDatabase } from './label-tracking.database';
import { announceDeliveries } from './shipment-deliveries';
import { ShipmentRepository } from './shipment.repository';
import { TrackingRepository } from './tracking.repository';

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
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    private readonly shipments: ShipmentRepository,
    private readonly parcels: TrackingRepository,
  ) {}

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
    const courier = event.carrier.trim().toUpperCase();
    const number = event.tracking_number.trim();
    const existing = await this.parcels.lockByNumber(manager, courier, number);
    if (existing && existing.merchant_id !== merchantId)
      throw new DomainError(
        CommonErrorCode.Conflict,
        `${courier} ${number} is another merchant's parcel: order ${event.order_id} cannot ship with it`,
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
