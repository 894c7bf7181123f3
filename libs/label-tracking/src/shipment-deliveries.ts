import { EntityManager } from 'typeorm';
import { LabelEvent } from '@consign/contracts';
import { Outbox } from '@consign/messaging';
import { ShipmentRepository } from './shipment.repository';

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
  shipments: ShipmentRepository,
  trackingIds: number[],
): Promise<void> {
  if (trackingIds.length === 0) return;
  const orders = await shipments.ordersShippedWith(manager, trackingIds);
  if (orders.length === 0) return;
  await shipments.lockOrders(manager, orders);
  const delivered = await shipments.delivered(manager, trackingIds);
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
}
