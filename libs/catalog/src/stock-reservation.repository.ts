import { Injectable } from '@nestjs/common';
import { ResolvedStockLine } from '@consign/contracts';
import { Sql } from '@consign/database';

const RESERVATION = '"catalog"."stock_reservation"';

export type ReservationStatus = 'reserved' | 'released' | 'consumed';

/** An order's reservation: what it holds, where. */
export interface Reservation {
  status: ReservationStatus;
  warehouse_code: string | null;
  lines: ResolvedStockLine[];
}

/** A reservation still holding stock. */
export interface LiveReservation {
  order_id: number;
  merchant_id: number;
  warehouse_code: string | null;
}

/**
 * SQL of the stock-reservation aggregate: one row per order, which makes release and deduction
 * idempotent and lets a request that arrives after its order was cancelled or shipped change
 * nothing (a tombstone row without lines).
 */
@Injectable()
export class StockReservationRepository {
  /** Locks the order's reservation, if it has one (the caller's transaction holds the lock). */
  async lock(sql: Sql, orderId: number): Promise<Reservation | undefined> {
    const rows = (await sql.query(
      `SELECT status, warehouse_code, lines FROM ${RESERVATION} WHERE order_id = $1 FOR UPDATE`,
      [orderId],
    )) as Reservation[];
    return rows[0];
  }

  /** Records the order's reservation; false when another transaction recorded one meanwhile. */
  async insertReserved(
    sql: Sql,
    orderId: number,
    merchantId: number,
    warehouseCode: string,
    lines: ResolvedStockLine[],
    attempt: number,
  ): Promise<boolean> {
    const inserted = (await sql.query(
      `INSERT INTO ${RESERVATION} (order_id, merchant_id, status, warehouse_code, lines, attempt)
       VALUES ($1, $2, 'reserved', $3, $4, $5) ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
      [orderId, merchantId, warehouseCode, JSON.stringify(lines), attempt],
    )) as unknown[];
    return inserted.length > 0;
  }

  /** Remembers that an order with no reservation needs no stock any more. */
  async insertTombstone(
    sql: Sql,
    orderId: number,
    merchantId: number,
    status: Exclude<ReservationStatus, 'reserved'>,
  ): Promise<void> {
    await sql.query(
      `INSERT INTO ${RESERVATION} (order_id, merchant_id, status) VALUES ($1, $2, $3)
       ON CONFLICT (order_id) DO NOTHING`,
      [orderId, merchantId, status],
    );
  }

  async setStatus(sql: Sql, orderId: number, status: ReservationStatus): Promise<void> {
    await sql.query(
      `UPDATE ${RESERVATION} SET status = $2, updated_at = now() WHERE order_id = $1`,
      [orderId, status],
    );
  }

  /**
   * Reservations (of the merchant, or all) still `reserved` and unchanged for `settleSeconds`,
   * by merchant and order.
   */
  async live(sql: Sql, settleSeconds: number, merchantId?: number): Promise<LiveReservation[]> {
    return (await sql.query(
      `SELECT order_id, merchant_id, warehouse_code FROM ${RESERVATION}
        WHERE status = 'reserved' AND updated_at < now() - make_interval(secs => $1)
          AND ($2::bigint IS NULL OR merchant_id = $2)
        ORDER BY merchant_id, order_id`,
      [settleSeconds, merchantId ?? null],
    )) as LiveReservation[];
  }
}
