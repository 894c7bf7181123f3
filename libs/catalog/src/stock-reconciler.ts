import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ORDER_STATES_MAX,
  OrderStatus,
  OrderTopic,
  ReconciledReservation,
  ReconciliationAction,
  RepairedStockCount,
  StockReconciliationReport,
} from '@consign/contracts';
import { CommandBus } from '@consign/bus';
import { PeriodicTask } from '@consign/core';
import { CatalogConfig } from './catalog.config';
import { catalogDatabase } from './catalog.database';
import { StockReservationService } from './stock-reservation.service';
import { LiveReservation, StockReservationRepository } from './stock-reservation.repository';
import { StockRepository } from './stock.repository';

/** Orders that hold no stock any more: their reservation must have been released or consumed. */
const SETTLE_BY_STATUS: Partial<Record<OrderStatus, ReconciliationAction>> = {
  [OrderStatus.Cancelled]: ReconciliationAction.Released,
  [OrderStatus.Fulfilled]: ReconciliationAction.Consumed,
  [OrderStatus.Completed]: ReconciliationAction.Consumed,
};

/**
 * Stock reconciliation: the stock saga's events can be lost or dead-lettered (a shipped event
 * read as an empty value), leaving a reservation `reserved` for an order that was cancelled or
 * shipped. Scheduled every STOCK_RECONCILE_INTERVAL_MS and on demand (`catalog.stock.reconcile.v1`,
 * the admin's `reconcile`), per merchant: every live reservation older than
 * STOCK_RECONCILE_SETTLE_MS is compared with its order's state at order-service (asked over the
 * bus, outside any transaction). What can be proved is repaired with the saga's own use cases,
 * which are idempotent: a Cancelled order's reservation is released, a shipped one's consumed. A
 * reservation whose order order-service does not know is reported, not touched. Then each stock
 * row's `reserved` is compared with the sum of its live reservations (the ledger) and set to it.
 */
@Injectable()
export class StockReconciler extends PeriodicTask {
  private readonly logger = new Logger('StockReconciler');

  constructor(
    @Inject(catalogDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly reservations: StockReservationService,
    private readonly bus: CommandBus,
    private readonly config: CatalogConfig,
    private readonly stock: StockRepository,
    private readonly reservationRows: StockReservationRepository,
  ) {
    super();
  }

  protected get intervalMs(): number {
    return this.config.STOCK_RECONCILE_INTERVAL_MS;
  }

  protected runOnce(): Promise<StockReconciliationReport> {
    return this.reconcile();
  }

  protected reportFailure(message: string): void {
    this.logger.error(`failed: ${message}`);
  }

  async reconcile(merchantId?: number): Promise<StockReconciliationReport> {
    const live = await this.reservationRows.live(
      this.dataSource,
      this.config.STOCK_RECONCILE_SETTLE_MS / 1000,
      merchantId,
    );
    const reservations: ReconciledReservation[] = [];
    for (const [merchant, chunk] of chunksPerMerchant(live)) {
      const reply = await this.bus.request(
        OrderTopic.States,
        { merchant_id: merchant, order_ids: chunk.map((r) => r.order_id) },
        { key: String(merchant) },
      );
      // Without order-service's answer nothing can be proved: the next run tries again.
      if (!reply.ok)
        throw new Error(`order states of merchant ${merchant}: ${reply.error.message}`);
      const statusOf = new Map(reply.data.map((s) => [s.order_id, s.status]));
      for (const reservation of chunk) {
        const status = statusOf.get(reservation.order_id) ?? null;
        const settle = status === null ? undefined : SETTLE_BY_STATUS[status];
        if (status !== null && !settle) continue; // the order still needs its stock
        if (settle === ReconciliationAction.Released)
          await this.dataSource.transaction((m) =>
            this.reservations.release(m, merchant, reservation.order_id),
          );
        else if (settle === ReconciliationAction.Consumed)
          await this.dataSource.transaction((m) =>
            this.reservations.deduct(m, merchant, reservation.order_id),
          );
        reservations.push({
          merchant_id: merchant,
          order_id: reservation.order_id,
          warehouse_code: reservation.warehouse_code,
          order_status: status,
          action: settle ?? ReconciliationAction.Reported,
        });
      }
    }
    const counts = await this.repairCounts(merchantId);
    const report = { checked: live.length, reservations, counts };
    if (reservations.length + counts.length > 0)
      this.logger.warn(
        `reconciled stock: ${reservations.map((r) => `order ${r.order_id} (${r.order_status ?? 'unknown'}): ${r.action}`).join('; ')}` +
          (counts.length ? `; ${counts.length} reserved count(s) set to their reservations` : ''),
      );
    return report;
  }

  /**
   * Stock rows whose `reserved` differs from the sum of their live reservations. The rows are
   * locked before the sums are read again, so a reservation being written meanwhile (it locks the
   * same rows) has committed and is counted; a sum above on-hand is left for an operator.
   */
  private async repairCounts(merchantId?: number): Promise<RepairedStockCount[]> {
    const suspects = await this.stock.miscounted(this.dataSource, merchantId);
    if (suspects.length === 0) return [];
    return this.dataSource.transaction(async (manager) => {
      const keys: [number[], string[]] = [
        suspects.map((s) => s.variant_id),
        suspects.map((s) => s.warehouse_code),
      ];
      await this.stock.lockRows(manager, keys);
      const confirmed = await this.stock.miscountedAmong(manager, keys);
      const repairable = confirmed.filter((r) => r.reserved_after <= r.on_hand);
      for (const row of confirmed.filter((r) => r.reserved_after > r.on_hand))
        this.logger.error(
          `stock of variant ${row.variant_id} at ${row.warehouse_code}: live reservations (${row.reserved_after}) exceed on-hand (${row.on_hand}); left for an operator`,
        );
      if (repairable.length) await this.stock.setReserved(manager, repairable);
      return repairable.map(({ on_hand: _onHand, ...repaired }) => repaired);
    });
  }
}

function* chunksPerMerchant(rows: LiveReservation[]): Generator<[number, LiveReservation[]]> {
  let i = 0;
  while (i < rows.length) {
    const merchant = rows[i].merchant_id;
    let j = i;
    while (j < rows.length && rows[j].merchant_id === merchant && j - i < ORDER_STATES_MAX) j++;
    yield [merchant, rows.slice(i, j)];
    i = j;
  }
}
