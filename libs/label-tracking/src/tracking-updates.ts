import { EntityManager } from 'typeorm';
import { LabelEvent } from '@consign/contracts';
import { Outbox } from '@consign/messaging';
import { TrackingRepository } from './tracking.repository';

/**
 * Announces, in the caller's transaction, that these parcels got new checkpoints: a
 * `label.tracking.updated.v1` per label and a `label.order_tracking.updated.v1` per order with a
 * shipment among them (for webhooks; the dispatcher reads the tracking itself). One query and
 * one multi-row INSERT per topic, whatever the batch size.
 */
export async function announceTrackingUpdates(
  manager: EntityManager,
  outbox: Outbox,
  parcels: TrackingRepository,
  trackingIds: number[],
): Promise<void> {
  if (trackingIds.length === 0) return;
  const rows = await parcels.trackedBy(manager, trackingIds);
  const labels = rows.filter((r) => r.kind === 'label');
  const orders = rows.filter((r) => r.kind === 'order');
  await outbox.addMany(
    manager,
    LabelEvent.TrackingUpdated,
    labels.map((r) => ({
      merchantId: r.merchant_id,
      aggregateId: r.id,
      payload: { label_id: r.id },
    })),
  );
  await outbox.addMany(
    manager,
    LabelEvent.OrderTrackingUpdated,
    orders.map((r) => ({
      merchantId: r.merchant_id,
      aggregateId: r.id,
      payload: { order_id: r.id },
    })),
  );
}
