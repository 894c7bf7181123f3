import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  ReservationFailure,
  ReservationRequestEvent,
  ResolvedStockLine,
  StockEvent,
} from '@consign/contracts';
import { Outbox } from '@consign/messaging';
import { announceStockLevels } from './stock-level-events';
import { catalogDatabase } from './catalog.database';
import { quantitiesPerVariant } from './variant-quantities';
import { ProductRepository } from './product.repository';
import { StockRepository } from './stock.repository';
import { ReservationStatus, StockReservationRepository } from './stock-reservation.repository';

const REASON_MAX = 255;

interface Failure {
  reason: ReservationFailure;
  message: string;
  sku_numbers: string[];
}

/**
 * catalog-service's side of the stock saga. Each use case runs in the transaction of the event
 * that asked for it (the Inbox's) and answers through the outbox. Stock rows are locked in
 * variant order and checked before they change, so concurrent orders for the last units get
 * exactly what is there; the table's CHECKs (0 <= reserved <= on_hand) are the backstop.
 * A per-order reservation row makes release and deduction idempotent and lets a request that
 * arrives after its order was cancelled or shipped change nothing.
 */
@Injectable()
export class StockReservationService {
  private readonly logger = new Logger('StockReservation');

  constructor(
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
    private readonly products: ProductRepository,
    private readonly stock: StockRepository,
    private readonly reservations: StockReservationRepository,
  ) {}

  /** Reserves every line of the order at one warehouse, or nothing; answers either way. */
  async reserve(
    manager: EntityManager,
    merchantId: number,
    request: ReservationRequestEvent,
  ): Promise<void> {
    const existing = await this.reservations.lock(manager, request.order_id);
    if (existing && existing.status !== 'reserved') {
      this.logger.log(
        `order ${request.order_id}: reservation attempt ${request.attempt} ignored, the order's stock was already ${existing.status}`,
      );
      return;
    }
    const outcome = existing
      ? { warehouse_code: existing.warehouse_code!, lines: existing.lines }
      : await this.tryReserve(manager, merchantId, request);
    if ('reason' in outcome) {
      await this.outbox.add(manager, StockEvent.ReservationFailed, {
        merchantId,
        aggregateId: request.order_id,
        payload: { order_id: request.order_id, attempt: request.attempt, ...outcome },
      });
      return;
    }
    await this.outbox.add(manager, StockEvent.Reserved, {
      merchantId,
      aggregateId: request.order_id,
      payload: { order_id: request.order_id, attempt: request.attempt, ...outcome },
    });
  }

  /** The order was cancelled: what it had reserved is available again. */
  async release(manager: EntityManager, merchantId: number, orderId: number): Promise<void> {
    await this.settle(manager, merchantId, orderId, 'released');
  }

  /** The order was shipped: its reserved units leave the warehouse. */
  async deduct(manager: EntityManager, merchantId: number, orderId: number): Promise<void> {
    await this.settle(manager, merchantId, orderId, 'consumed');
  }

  private async tryReserve(
    manager: EntityManager,
    merchantId: number,
    request: ReservationRequestEvent,
  ): Promise<Failure | { warehouse_code: string; lines: ResolvedStockLine[] }> {
    const skuNumbers = [...new Set(request.lines.map((l) => l.sku_number))];
    const resolved = new Map(
      (await this.products.resolveVariants(manager, merchantId, skuNumbers)).map((v) => [
        v.sku_number,
        v,
      ]),
    );
    const unknown = skuNumbers.filter((s) => !resolved.has(s));
    if (unknown.length)
      return failure(
        ReservationFailure.UnknownSku,
        `Unknown SKU: ${unknown.join(', ')} (not a variant of yours).`,
        unknown,
      );
    const lines = request.lines.map((l) => ({
      sku_number: l.sku_number,
      variant_id: resolved.get(l.sku_number)!.variant_id,
      quantity: l.quantity,
    }));
    const needed = quantitiesPerVariant(lines);
    const warehouse =
      request.warehouse_code ?? (await this.stock.warehouseWithAll(manager, merchantId, needed));
    if (!warehouse)
      return failure(
        ReservationFailure.NoWarehouse,
        `No warehouse has every line in stock: ${skuNumbers.join(', ')}.`,
        skuNumbers,
      );
    const rows = await this.stock.lockAvailable(
      manager,
      merchantId,
      warehouse,
      needed.map((n) => n.variant_id),
    );
    const available = new Map(rows.map((r) => [r.variant_id, r.available]));
    const short = needed.filter((n) => (available.get(n.variant_id) ?? 0) < n.quantity);
    if (short.length) {
      const skuOf = (id: number) => lines.find((l) => l.variant_id === id)!.sku_number;
      return failure(
        ReservationFailure.InsufficientStock,
        `Insufficient stock at ${warehouse}: ${short
          .map(
            (n) =>
              `${skuOf(n.variant_id)} (${n.quantity} needed, ${available.get(n.variant_id) ?? 0} available)`,
          )
          .join(', ')}.`,
        short.map((n) => skuOf(n.variant_id)),
      );
    }
    await this.stock.reserve(manager, warehouse, needed);
    await announceStockLevels(
      manager,
      this.outbox,
      this.stock,
      merchantId,
      warehouse,
      needed.map((n) => n.variant_id),
    );
    const inserted = await this.reservations.insertReserved(
      manager,
      request.order_id,
      merchantId,
      warehouse,
      lines,
      request.attempt,
    );
    // Another transaction recorded this order meanwhile: roll back; the retry will see its row.
    if (!inserted) throw new Error(`order ${request.order_id} reserved concurrently`);
    return { warehouse_code: warehouse, lines };
  }

  /**
   * Ends an order's reservation (released or consumed), changing its stock rows accordingly.
   * Without a reservation, a tombstone row remembers that the order needs no stock any more.
   */
  private async settle(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
    to: Exclude<ReservationStatus, 'reserved'>,
  ): Promise<void> {
    const reservation = await this.reservations.lock(manager, orderId);
    if (!reservation) {
      await this.reservations.insertTombstone(manager, orderId, merchantId, to);
      return;
    }
    if (reservation.status !== 'reserved') return;
    const quantities = quantitiesPerVariant(reservation.lines);
    // Lock in variant order, as reserve does.
    await this.stock.lock(
      manager,
      reservation.warehouse_code!,
      quantities.map((q) => q.variant_id),
    );
    await this.stock.settle(manager, reservation.warehouse_code!, quantities, to);
    // A reserved reservation always names its warehouse.
    if (reservation.warehouse_code)
      await announceStockLevels(
        manager,
        this.outbox,
        this.stock,
        merchantId,
        reservation.warehouse_code,
        quantities.map((q) => q.variant_id),
      );
    await this.reservations.setStatus(manager, orderId, to);
  }
}

function failure(reason: ReservationFailure, message: string, sku_numbers: string[]): Failure {
  return {
    reason,
    message: message.length > REASON_MAX ? `${message.slice(0, REASON_MAX - 1)}…` : message,
    sku_numbers,
  };
}
