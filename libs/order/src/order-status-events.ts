import { EntityManager } from 'typeorm';
import { OrderEvent, OrderStatus } from '@consign/contracts';
import { Outbox } from '@consign/platform';
import { OrderRepository } from './order.repository';

/**
 * Announces a new order or a status change (`order.status_changed.v1`) in the transaction that
 * made it, with the order as the API returns it after the change: webhooks deliver that view,
 * so the dispatcher never asks order-service for it (and never sees a later state).
 */
export async function addOrderStatusChanged(
  outbox: Outbox,
  manager: EntityManager,
  merchantId: number,
  orderId: number,
  previous: OrderStatus | null,
): Promise<void> {
  const order = await OrderRepository.view(manager, merchantId, orderId);
  if (!order) return;
  await outbox.add(manager, OrderEvent.StatusChanged, {
    merchantId,
    aggregateId: orderId,
    payload: { order_id: orderId, previous_status: previous, status: order.status, order },
  });
}
