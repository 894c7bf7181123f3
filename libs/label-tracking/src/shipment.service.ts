import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  CheckpointStatus,
  CommonErrorCode,
  LabelEvent,
  OrderShippedEvent,
} from '@consign/contracts';
import { DomainError, Outbox } from '@consign/platform';
import { labelTrackingDatabase } from './label-tracking.database';
import { announceDeliveries } from './shipment-deliveries';
import { CONSIGN_CARRIER } from './tracking-state';

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
  constructor(@Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox) {}

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
    const [existing]: { id: number; merchant_id: number }[] = await manager.query(
      `SELECT id, merchant_id FROM "labels"."tracking"
        WHERE tracking_number = $1 AND tracking_courier = $2 FOR UPDATE`,
      [number, courier],
    );
    if (existing && existing.merchant_id !== merchantId)
      throw new DomainError(
        CommonErrorCode.Conflict,
        `${courier} ${number} is another merchant's parcel: order ${event.order_id} cannot ship with it`,
      );
    const trackingId =
      existing?.id ?? (await this.newParcel(manager, merchantId, courier, number, shippedAt));
    const [shipment]: { id: number }[] = await manager.query(
      `INSERT INTO "labels"."shipment" (merchant_id, order_id, tracking_id, packages, shipped_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ON CONSTRAINT "uq_shipment_order_id_tracking_id" DO NOTHING RETURNING id`,
      [merchantId, event.order_id, trackingId, event.packages, shippedAt],
    );
    if (shipment) {
      await this.outbox.add(manager, LabelEvent.ShipmentCreated, {
        merchantId,
        aggregateId: event.order_id,
        payload: {
          shipment_id: shipment.id,
          order_id: event.order_id,
          tracking_id: trackingId,
          carrier_code: courier,
          tracking_number: number,
        },
      });
      await announceDeliveries(manager, this.outbox, [trackingId]);
    }
    return { courier, number };
  }

  private async newParcel(
    manager: EntityManager,
    merchantId: number,
    courier: string,
    number: string,
    shippedAt: Date,
  ): Promise<number> {
    const [row]: { id: number }[] = await manager.query(
      `WITH tracking AS (
         INSERT INTO "labels"."tracking" (merchant_id, carrier_code, tracking_courier, tracking_number,
           allocated_at, status, status_at, last_event_at, created_at)
         VALUES ($1, $2, $2, $3, $4, '${CheckpointStatus.InformationReceived}', $4, $4, $4)
         RETURNING id)
       INSERT INTO "labels"."checkpoint" (tracking_id, event_time, status, carrier_code, event_code, description)
       SELECT id, $4, '${CheckpointStatus.InformationReceived}', '${CONSIGN_CARRIER}', $5, $6 FROM tracking
       RETURNING tracking_id AS id`,
      [
        merchantId,
        courier,
        number,
        shippedAt,
        ORDER_SHIPPED_CHECKPOINT.eventCode,
        ORDER_SHIPPED_CHECKPOINT.description,
      ],
    );
    return row.id;
  }
}
