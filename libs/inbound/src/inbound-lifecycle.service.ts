import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  InboundEvent,
  InboundOrderView,
  InboundReceiptRequest,
  InboundStatus,
} from '@consign/contracts';
import { CommandLedger, Outbox } from '@consign/messaging';
import { inboundDatabase } from './inbound.database';
import { applyReceipt } from './inbound.receipt';
import { InboundRepository, InboundState } from './inbound.repository';
import { inboundNotFound } from './inbound.service';
import { InboundActor, assertTransition } from './inbound.transitions';
import { addInboundStatusChanged } from './inbound-status-events';

/**
 * Every change of an inbound order, whoever asks: merchants and operators over HTTP, warehouse
 * adapters through events. Each use case runs in the caller's transaction (`apply` opens one for
 * HTTP; the Inbox's serves events).
 */
@Injectable()
export class InboundLifecycle {
  constructor(
    @Inject(inboundDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(inboundDatabase.outbox) private readonly outbox: Outbox,
    @Inject(inboundDatabase.commands) private readonly commands: CommandLedger,
    private readonly inbounds: InboundRepository,
  ) {}

  /**
   * Runs a use case in its own transaction and answers the inbound order as it is after it; the
   * command being handled is recorded in the same transaction (CommandLedger).
   */
  async apply(
    merchantId: number,
    inboundId: number,
    change: (manager: EntityManager) => Promise<void>,
  ): Promise<InboundOrderView> {
    const view = await this.commands.transaction(async (manager) => {
      await change(manager);
      const after = await this.inbounds.view(manager, merchantId, inboundId);
      if (!after) throw inboundNotFound();
      return after;
    });
    return view;
  }

  async cancel(manager: EntityManager, merchantId: number, inboundId: number): Promise<void> {
    await this.move(manager, merchantId, inboundId, InboundStatus.Cancelled, InboundActor.Merchant);
  }

  async reject(
    manager: EntityManager,
    merchantId: number,
    inboundId: number,
    reason: string,
  ): Promise<void> {
    await this.move(
      manager,
      merchantId,
      inboundId,
      InboundStatus.Failure,
      InboundActor.Warehouse,
      reason,
    );
  }

  /**
   * Goods arrived: the counts grow, the order becomes Partial or Completed, and what arrived goes
   * on hand at the warehouse through `inbound.received.v1`.
   */
  async receive(
    manager: EntityManager,
    merchantId: number,
    inboundId: number,
    receipt: InboundReceiptRequest,
  ): Promise<void> {
    const inbound = await this.locked(manager, merchantId, inboundId);
    const outcome = applyReceipt(
      inbound.id,
      await this.inbounds.items(manager, inbound.id),
      receipt,
    );
    assertTransition(inbound.id, inbound.status, outcome.status, InboundActor.Warehouse);
    await this.inbounds.recordReceipt(manager, inbound.id, outcome);
    await this.statusChanged(manager, merchantId, inbound);
    if (outcome.received.length === 0) return;
    await this.outbox.add(manager, InboundEvent.Received, {
      merchantId,
      aggregateId: inbound.id,
      payload: {
        inbound_id: inbound.id,
        warehouse_code: inbound.warehouse_code,
        lines: outcome.received,
      },
    });
  }

  /** Moves the inbound order to `to` (if `by` may), and records its status change. */
  private async move(
    manager: EntityManager,
    merchantId: number,
    inboundId: number,
    to: InboundStatus,
    by: InboundActor,
    reason?: string,
  ): Promise<void> {
    const inbound = await this.locked(manager, merchantId, inboundId);
    assertTransition(inbound.id, inbound.status, to, by);
    await this.inbounds.setStatus(manager, inbound.id, to, reason);
    await this.statusChanged(manager, merchantId, inbound);
  }

  private statusChanged(
    manager: EntityManager,
    merchantId: number,
    inbound: InboundState,
  ): Promise<void> {
    return addInboundStatusChanged(
      this.outbox,
      this.inbounds,
      manager,
      merchantId,
      inbound.id,
      inbound.status,
    );
  }

  private async locked(
    manager: EntityManager,
    merchantId: number,
    inboundId: number,
  ): Promise<InboundState> {
    const inbound = await this.inbounds.lock(manager, merchantId, inboundId);
    if (!inbound) throw inboundNotFound();
    return inbound;
  }
}
