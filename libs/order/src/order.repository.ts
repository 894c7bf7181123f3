import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CreateOrderRequest,
  OrderAddressDto,
  OrderStateView,
  OrderStatus,
  OrderView,
  SkuItemView,
  orderBillingAddress,
} from '@consign/contracts';

import { Sql } from '@consign/database';

const ORDER = '"orders"."order"';
const LINE = '"orders"."order_line"';
const COUNT = '"orders"."order_count"';
/** Counter rows per merchant (see StripeOrderCount1764000000320). */
const ORDER_COUNT_SLOTS = 16;

/** The columns of an order that its state changes need. */
export interface OrderState {
  id: number;
  status: OrderStatus;
  reservation_attempt: number;
  warehouse_code: string | null;
}

/** A Draft order still waiting for its reservation's answer. */
export interface UnansweredOrder {
  id: number;
  merchant_id: number;
  reservation_attempt: number;
  reservation_retries: number;
  warehouse_code: string | null;
}

interface OrderRow {
  id: number;
  status: OrderStatus;
  hold_reason: string | null;
  reference: string | null;
  currency: string;
  totals_include_tax: boolean;
  issue_date: Date | null;
  shipping_cost: number | null;
  shipping_address: OrderAddressDto;
  billing_address: OrderAddressDto;
  has_service: boolean;
  service_code: string | null;
  inco_term: string | null;
  warehouse_code: string | null;
  created_at: Date;
  sku_items: SkuItemView[];
}

/** The order's own columns of its view. */
const ROW_COLUMNS = `o.id, o.status, o.hold_reason, o.reference, o.currency, o.totals_include_tax,
  o.issue_date, o.shipping_cost, o.shipping_address, o.billing_address, o.has_service,
  o.service_code, o.inco_term, o.warehouse_code, o.created_at`;

/** One query per order view: the row and its lines (aggregated in line order). */
const VIEW_COLUMNS = `${ROW_COLUMNS},
  (SELECT json_agg(json_build_object('sku_number', l.sku_number, 'quantity', l.quantity,
     'price', l.price, 'discount', l.discount, 'tax', l.tax) ORDER BY l.line_no)
   FROM ${LINE} l WHERE l.order_id = o.id) AS sku_items`;

/**
 * SQL of order-service's schema. Orders are read in one statement each (row and lines); lists
 * page with a deferred join (the page's ids from the index, then only those rows), and the
 * merchant's total is a counter row, not a count over its orders.
 */
@Injectable()
export class OrderRepository {
  /**
   * Writes the order and its lines in one statement and answers the order as the API shows it,
   * read from what was written (RETURNING): no read-back.
   */
  async insert(sql: Sql, merchantId: number, request: CreateOrderRequest): Promise<OrderView> {
    const service = request.service;
    const items = request.sku_items;
    const [row] = (await sql.query(
      `WITH o AS (
         INSERT INTO ${ORDER} (merchant_id, status, reference, currency, totals_include_tax,
           shipping_cost, shipping_address, billing_address, has_service, service_code, inco_term,
           warehouse_code)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *),
       l AS (
         INSERT INTO ${LINE} (order_id, line_no, sku_number, quantity, price, discount, tax)
         SELECT o.id, n, s, q, p, d, t FROM o,
           unnest($13::int[], $14::varchar[], $15::int[], $16::numeric[], $17::numeric[], $18::numeric[])
             AS u(n, s, q, p, d, t)
         RETURNING line_no, sku_number, quantity, price, discount, tax)
       SELECT ${ROW_COLUMNS},
         (SELECT json_agg(json_build_object('sku_number', l.sku_number, 'quantity', l.quantity,
            'price', l.price, 'discount', l.discount, 'tax', l.tax) ORDER BY l.line_no)
          FROM l) AS sku_items
       FROM o`,
      [
        merchantId,
        OrderStatus.Draft,
        request.reference ?? null,
        request.currency,
        request.totals_include_tax,
        request.shipping_cost ?? null,
        JSON.stringify(request.shipping_address),
        JSON.stringify(orderBillingAddress(request)),
        service !== undefined,
        service?.service_code ?? null,
        service?.inco_term ?? null,
        service?.warehouse_code ?? null,
        items.map((_, i) => i + 1),
        items.map((item) => item.sku_number),
        items.map((item) => item.quantity),
        items.map((item) => item.price),
        items.map((item) => item.discount ?? null),
        items.map((item) => item.tax ?? null),
      ],
    )) as OrderRow[];
    return toOrderView(row);
  }

  async view(sql: Sql, merchantId: number, orderId: number): Promise<OrderView | undefined> {
    const rows = (await sql.query(
      `SELECT ${VIEW_COLUMNS} FROM ${ORDER} o WHERE o.id = $1 AND o.merchant_id = $2`,
      [orderId, merchantId],
    )) as OrderRow[];
    return rows.length ? toOrderView(rows[0]) : undefined;
  }

  /**
   * One page, newest first. The ids come from the (merchant_id, id DESC) index alone; a page in
   * the older half is read from the oldest end, so no page walks more than half the index.
   */
  async page(
    sql: Sql,
    merchantId: number,
    page: number,
    size: number,
    total: number,
  ): Promise<OrderView[]> {
    const offset = (page - 1) * size;
    if (offset >= total) return [];
    const fromOldest = offset > total / 2;
    const rows = (await sql.query(
      `WITH page AS (
         SELECT id FROM ${ORDER} WHERE merchant_id = $1
         ORDER BY id ${fromOldest ? 'ASC' : 'DESC'} LIMIT $2 OFFSET $3)
       SELECT ${VIEW_COLUMNS} FROM ${ORDER} o JOIN page ON page.id = o.id ORDER BY o.id DESC`,
      fromOldest
        ? [merchantId, Math.min(size, total - offset), Math.max(total - offset - size, 0)]
        : [merchantId, size, offset],
    )) as OrderRow[];
    return rows.map(toOrderView);
  }

  /** The merchant's number of orders: the sum of its counter slots, kept by `counted`. */
  async count(sql: Sql, merchantId: number): Promise<number> {
    const rows = (await sql.query(
      `SELECT COALESCE(sum(total), 0)::bigint AS total FROM ${COUNT} WHERE merchant_id = $1`,
      [merchantId],
    )) as { total: number }[];
    return rows[0]?.total ?? 0;
  }

  /**
   * Counts a new order in one of the merchant's counter slots, picked at random. The slot stays
   * locked until the commit (after the command ledger's INSERT): with one row per merchant its
   * concurrent creates queued there; with ORDER_COUNT_SLOTS rows they rarely meet.
   */
  async counted(sql: Sql, merchantId: number): Promise<void> {
    await sql.query(
      `INSERT INTO ${COUNT} AS c (merchant_id, slot, total) VALUES ($1, $2, 1)
       ON CONFLICT (merchant_id, slot) DO UPDATE SET total = c.total + 1`,
      [merchantId, randomInt(ORDER_COUNT_SLOTS)],
    );
  }

  async states(sql: Sql, merchantId: number, orderIds: number[]): Promise<OrderStateView[]> {
    return (await sql.query(
      `SELECT id AS order_id, status FROM ${ORDER} WHERE merchant_id = $1 AND id = ANY($2::bigint[])`,
      [merchantId, orderIds],
    )) as OrderStateView[];
  }

  /** Locks the order for a state change (the caller's transaction holds the lock). */
  async lock(sql: Sql, merchantId: number, orderId: number): Promise<OrderState | undefined> {
    const rows = (await sql.query(
      `SELECT id, status, reservation_attempt, warehouse_code FROM ${ORDER}
       WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
      [orderId, merchantId],
    )) as OrderState[];
    return rows[0];
  }

  async lines(sql: Sql, orderId: number): Promise<{ sku_number: string; quantity: number }[]> {
    return (await sql.query(
      `SELECT sku_number, quantity FROM ${LINE} WHERE order_id = $1 ORDER BY line_no`,
      [orderId],
    )) as { sku_number: string; quantity: number }[];
  }

  /**
   * Sets the status and whatever else the change brings; hold_reason is cleared unless given.
   * Answers the order as the API shows it after the change (RETURNING: no read-back; wrapped in
   * a SELECT because TypeORM answers an UPDATE's rows with its count).
   */
  async update(
    sql: Sql,
    orderId: number,
    change: {
      status: OrderStatus;
      hold_reason?: string;
      /** A new reservation request: its time is recorded and the watchdog's retries start over. */
      reservation_attempt?: number;
      warehouse_code?: string;
      issued?: boolean;
      shipment?: { carrier: string; tracking_number: string; packages: number };
    },
  ): Promise<OrderView> {
    const [row] = (await sql.query(
      `WITH changed AS (UPDATE ${ORDER} o SET status = $2, hold_reason = $3,
         reservation_attempt = coalesce($4, reservation_attempt),
         reservation_requested_at = CASE WHEN $4::int IS NULL THEN reservation_requested_at ELSE now() END,
         reservation_retries = CASE WHEN $4::int IS NULL THEN reservation_retries ELSE 0 END,
         warehouse_code = coalesce($5, warehouse_code),
         issue_date = CASE WHEN $6 THEN coalesce(issue_date, now()) ELSE issue_date END,
         carrier = coalesce($7, carrier), tracking_number = coalesce($8, tracking_number),
         packages = coalesce($9, packages),
         shipped_at = CASE WHEN $10 THEN now() ELSE shipped_at END,
         updated_at = now()
       WHERE id = $1
       RETURNING ${VIEW_COLUMNS})
       SELECT * FROM changed`,
      [
        orderId,
        change.status,
        change.hold_reason ?? null,
        change.reservation_attempt ?? null,
        change.warehouse_code ?? null,
        change.issued ?? false,
        change.shipment?.carrier ?? null,
        change.shipment?.tracking_number ?? null,
        change.shipment?.packages ?? null,
        change.shipment !== undefined,
      ],
    )) as OrderRow[];
    return toOrderView(row);
  }

  /**
   * Draft orders whose reservation has waited longer than `timeoutSeconds`, oldest request first,
   * at most `batch`, claimed FOR UPDATE SKIP LOCKED (the caller's transaction holds them).
   */
  async claimUnanswered(
    sql: Sql,
    timeoutSeconds: number,
    batch: number,
  ): Promise<UnansweredOrder[]> {
    return (await sql.query(
      `SELECT id, merchant_id, reservation_attempt, reservation_retries, warehouse_code
         FROM ${ORDER}
        WHERE status = $1 AND reservation_requested_at < now() - make_interval(secs => $2)
        ORDER BY reservation_requested_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [OrderStatus.Draft, timeoutSeconds, batch],
    )) as UnansweredOrder[];
  }

  /**
   * When the earliest Draft order will have waited `timeoutSeconds` for its reservation's answer
   * (claimUnanswered's condition); null when no order is Draft.
   */
  async nextUnansweredAt(sql: Sql, timeoutSeconds: number): Promise<Date | null> {
    const [row] = (await sql.query(
      `SELECT min(reservation_requested_at) + make_interval(secs => $2) AS due
         FROM ${ORDER} WHERE status = $1`,
      [OrderStatus.Draft, timeoutSeconds],
    )) as { due: Date | string | null }[];
    return row?.due == null ? null : new Date(row.due);
  }

  /** Records that the reservation was asked again, with this attempt number. */
  async retryReservation(sql: Sql, orderId: number, attempt: number): Promise<void> {
    await sql.query(
      `UPDATE ${ORDER} SET reservation_attempt = $2, reservation_requested_at = now(),
         reservation_retries = reservation_retries + 1, updated_at = now()
       WHERE id = $1`,
      [orderId, attempt],
    );
  }
}

export function toOrderView(row: OrderRow): OrderView {
  const hasService = row.has_service || row.warehouse_code !== null;
  return {
    id: row.id,
    shipping_address: row.shipping_address,
    billing_address: row.billing_address,
    reference: row.reference,
    currency: row.currency,
    totals_include_tax: row.totals_include_tax,
    issue_date: row.issue_date ? row.issue_date.toISOString() : null,
    status: row.status,
    hold_reason: row.hold_reason,
    shipping_cost: row.shipping_cost,
    sku_items: row.sku_items ?? [],
    created_time: row.created_at.toISOString(),
    service: hasService
      ? {
          service_code: row.service_code,
          inco_term: row.inco_term,
          warehouse_code: row.warehouse_code,
        }
      : null,
  };
}
