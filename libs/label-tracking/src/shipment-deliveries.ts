import { EntityManager } from 'typeorm';
import { LabelEvent } from '@consign/contracts';
import { Outbox } from '@consign/platform';
import { isoUtc } from './sql-time';

/**
 * Announces (label.shipment.delivered.v1, in the caller's transaction) the shipments of these
 * parcels that are delivered, each saying whether every shipment of its order now is. The
 * orders' shipments are locked first, so that two transactions delivering the last two shipments
 * of one order cannot both miss the other's (the second waits, then reads the first's commit).
 * A parcel delivered twice (delivered, then delivered with an exception) is announced twice;
 * order-service completes an order once.
 */
export async function announceDeliveries(
  manager: EntityManager,
  outbox: Outbox,
  trackingIds: number[],
): Promise<number> {
  if (trackingIds.length === 0) return 0;
  const orders: { order_id: number }[] = await manager.query(
    `SELECT DISTINCT order_id FROM "labels"."shipment" WHERE tracking_id = ANY($1::bigint[])`,
    [trackingIds],
  );
  if (orders.length === 0) return 0;
  await manager.query(
    `SELECT id FROM "labels"."shipment" WHERE order_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [orders.map((o) => o.order_id)],
  );
  const delivered: {
    shipment_id: number;
    order_id: number;
    merchant_id: number;
    tracking_courier: string;
    tracking_number: string;
    delivered_time: string;
    all_delivered: boolean;
  }[] = await manager.query(
    `SELECT s.id AS shipment_id, s.order_id, s.merchant_id, t.tracking_courier, t.tracking_number,
            ${isoUtc('t.delivered_time')} AS delivered_time,
            NOT EXISTS (
              SELECT 1 FROM "labels"."shipment" o JOIN "labels"."tracking" ot ON ot.id = o.tracking_id
               WHERE o.order_id = s.order_id AND o.merchant_id = s.merchant_id
                 AND ot.delivered_time IS NULL) AS all_delivered
       FROM "labels"."shipment" s JOIN "labels"."tracking" t ON t.id = s.tracking_id
      WHERE s.tracking_id = ANY($1::bigint[]) AND t.delivered_time IS NOT NULL
      ORDER BY s.id`,
    [trackingIds],
  );
  for (const row of delivered)
    await outbox.add(manager, LabelEvent.ShipmentDelivered, {
      merchantId: row.merchant_id,
      aggregateId: row.order_id,
      payload: {
        order_id: row.order_id,
        shipment_id: row.shipment_id,
        tracking_courier: row.tracking_courier,
        tracking_number: row.tracking_number,
        delivered_time: row.delivered_time,
        all_delivered: row.all_delivered,
      },
    });
  return delivered.length;
}
