import { OrderEvent, OrderStatus, OrderView } from '@consign/contracts';
import { OutboxEntry } from '@consign/messaging';

/**
 * The announcement of a new order or a status change (`order.status_changed.v1`), to be written
 * in the transaction that made it, with the order as the API returns it after the change (as the
 * statement that made the change returned it): webhooks deliver that view, so the dispatcher
 * never asks order-service for it (and never sees a later state).
 */
export function orderStatusChanged(
  merchantId: number,
  order: OrderView,
  previous: OrderStatus | null,
): OutboxEntry {
  return {
    topic: OrderEvent.StatusChanged,
    merchantId,
    aggregateId: order.id,
    payload: { order_id: order.id, previous_status: previous, status: order.status, order },
  };
}
