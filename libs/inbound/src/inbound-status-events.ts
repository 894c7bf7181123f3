import { EntityManager } from 'typeorm';
import { InboundEvent, InboundStatus } from '@consign/contracts';
import { Outbox } from '@consign/messaging';
import { InboundRepository } from './inbound.repository';

/**
 * Announces a new inbound order or a status change (`inbound.status_changed.v1`) in the
 * transaction that made it, with the inbound order as the API returns it after the change (what
 * webhooks deliver).
 */
export async function addInboundStatusChanged(
  outbox: Outbox,
  inbounds: InboundRepository,
  manager: EntityManager,
  merchantId: number,
  inboundId: number,
  previous: InboundStatus | null,
): Promise<void> {
  const inbound = await inbounds.view(manager, merchantId, inboundId);
  if (!inbound || inbound.status === previous) return;
  await outbox.add(manager, InboundEvent.StatusChanged, {
    merchantId,
    aggregateId: inboundId,
    payload: { inbound_id: inboundId, previous_status: previous, status: inbound.status, inbound },
  });
}
