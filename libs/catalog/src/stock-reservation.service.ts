import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  ReservationFailure,
  ReservationRequestEvent,
  ResolvedStockLine,
  StockEvent,
} from '@consign/contracts';
import { Outbox } from '@consign/platform';
import { announceStockLevels } from './stock-level-events';
import { catalogDatabase } from './catalog.database';
import { quantitiesPerVariant, resolveVariants } from './variant-resolver';

const STOCK = '"catalog"."stock_level"';
const RESERVATION = '"catalog"."stock_reservation"';
const REASON_MAX = 255;

type ReservationStatus = 'reserved' | 'released' | 'consumed';

interface Reservation {
  status: ReservationStatus;
  warehouse_code: string | null;
  lines: ResolvedStockLine[];
}

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

  constructor(@Inject(catalogDatabase.outbox) private readonly outbox: Outbox) {}

  /** Reserves every line of the order at one warehouse, or nothing; answers either way. */
  async reserve(
    manager: EntityManager,
    merchantId: number,
    request: ReservationRequestEvent,
  ): Promise<void> {
    const existing = await this.lock(manager, request.order_id);
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
    await this.settle(manager, merchantId, orderId, 'released', 'reserved = s.reserved - u.q');
  }

  /** The order was shipped: its reserved units leave the warehouse. */
  async deduct(manager: EntityManager, merchantId: number, orderId: number): Promise<void> {
    await this.settle(
      manager,
      merchantId,
      orderId,
      'consumed',
      'reserved = s.reserved - u.q, on_hand = s.on_hand - u.q',
    );
  }

  private async tryReserve(
    manager: EntityManager,
    merchantId: number,
    request: ReservationRequestEvent,
  ): Promise<Failure | { warehouse_code: string; lines: ResolvedStockLine[] }> {
    const skuNumbers = [...new Set(request.lines.map((l) => l.sku_number))];
    const resolved = new Map(
      (await resolveVariants(manager, merchantId, skuNumbers)).map((v) => [v.sku_number, v]),
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
      request.warehouse_code ?? (await this.warehouseWithAll(manager, merchantId, needed));
    if (!warehouse)
      return failure(
        ReservationFailure.NoWarehouse,
        `No warehouse has every line in stock: ${skuNumbers.join(', ')}.`,
        skuNumbers,
      );
    const rows = (await manager.query(
      `SELECT variant_id, on_hand - reserved AS available FROM ${STOCK}
       WHERE warehouse_code = $1 AND variant_id = ANY($2::bigint[]) AND merchant_id = $3
       ORDER BY variant_id FOR UPDATE`,
      [warehouse, needed.map((n) => n.variant_id), merchantId],
    )) as { variant_id: number; available: number }[];
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
    await manager.query(
      `UPDATE ${STOCK} s SET reserved = s.reserved + u.q, updated_at = now()
       FROM unnest($2::bigint[], $3::int[]) AS u(v, q)
       WHERE s.warehouse_code = $1 AND s.variant_id = u.v`,
      [warehouse, needed.map((n) => n.variant_id), needed.map((n) => n.quantity)],
    );
    await announceStockLevels(
      manager,
      this.outbox,
      merchantId,
      warehouse,
      needed.map((n) => n.variant_id),
    );
    const inserted = (await manager.query(
      `INSERT INTO ${RESERVATION} (order_id, merchant_id, status, warehouse_code, lines, attempt)
       VALUES ($1, $2, 'reserved', $3, $4, $5) ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
      [request.order_id, merchantId, warehouse, JSON.stringify(lines), request.attempt],
    )) as unknown[];
    // Another transaction recorded this order meanwhile: roll back; the retry will see its row.
    if (inserted.length === 0) throw new Error(`order ${request.order_id} reserved concurrently`);
    return { warehouse_code: warehouse, lines };
  }

  /** Without a warehouse given: the first (by code) that has every line available. */
  private async warehouseWithAll(
    manager: EntityManager,
    merchantId: number,
    needed: { variant_id: number; quantity: number }[],
  ): Promise<string | undefined> {
    const rows = (await manager.query(
      `SELECT s.warehouse_code FROM ${STOCK} s
       JOIN unnest($2::bigint[], $3::int[]) AS u(v, q) ON u.v = s.variant_id
       WHERE s.merchant_id = $1 AND s.on_hand - s.reserved >= u.q
       GROUP BY s.warehouse_code HAVING count(*) = $4
       ORDER BY s.warehouse_code LIMIT 1`,
      [merchantId, needed.map((n) => n.variant_id), needed.map((n) => n.quantity), needed.length],
    )) as { warehouse_code: string }[];
    return rows[0]?.warehouse_code;
  }

  /**
   * Ends an order's reservation (released or consumed), changing the stock rows with `change`
   * (SQL over `s` the stock row and `u.q` the quantity). Without a reservation, a tombstone row
   * remembers that the order needs no stock any more.
   */
  private async settle(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
    to: Exclude<ReservationStatus, 'reserved'>,
    change: string,
  ): Promise<void> {
    const reservation = await this.lock(manager, orderId);
    if (!reservation) {
      await manager.query(
        `INSERT INTO ${RESERVATION} (order_id, merchant_id, status) VALUES ($1, $2, $3)
         ON CONFLICT (order_id) DO NOTHING`,
        [orderId, merchantId, to],
      );
      return;
    }
    if (reservation.status !== 'reserved') return;
    const quantities = quantitiesPerVariant(reservation.lines);
    // Lock in variant order, as reserve does.
    await manager.query(
      `SELECT 1 FROM ${STOCK} WHERE warehouse_code = $1 AND variant_id = ANY($2::bigint[])
       ORDER BY variant_id FOR UPDATE`,
      [reservation.warehouse_code, quantities.map((q) => q.variant_id)],
    );
    await manager.query(
      `UPDATE ${STOCK} s SET ${change}, updated_at = now()
       FROM unnest($2::bigint[], $3::int[]) AS u(v, q)
       WHERE s.warehouse_code = $1 AND s.variant_id = u.v`,
      [
        reservation.warehouse_code,
        quantities.map((q) => q.variant_id),
        quantities.map((q) => q.quantity),
      ],
    );
    // A reserved reservation always names its warehouse.
    if (reservation.warehouse_code)
      await announceStockLevels(
        manager,
        this.outbox,
        merchantId,
        reservation.warehouse_code,
        quantities.map((q) => q.variant_id),
      );
    await manager.query(
      `UPDATE ${RESERVATION} SET status = $2, updated_at = now() WHERE order_id = $1`,
      [orderId, to],
    );
  }

  private async lock(manager: EntityManager, orderId: number): Promise<Reservation | undefined> {
    const rows = (await manager.query(
      `SELECT status, warehouse_code, lines FROM ${RESERVATION} WHERE order_id = $1 FOR UPDATE`,
      [orderId],
    )) as Reservation[];
    return rows[0];
  }
}

function failure(reason: ReservationFailure, message: string, sku_numbers: string[]): Failure {
  return {
    reason,
    message: message.length > REASON_MAX ? `${message.slice(0, REASON_MAX - 1)}…` : message,
    sku_numbers,
  };
}
