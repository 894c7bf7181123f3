import { Injectable } from '@nestjs/common';
import { RepairedStockCount } from '@consign/contracts';
import { Sql } from '@consign/database';

const STOCK = '"catalog"."stock_level"';
const VARIANT = '"catalog"."variant"';
const RESERVATION = '"catalog"."stock_reservation"';

/** A variant's quantity (a stock change, or what an order needs of it). */
export interface VariantQuantity {
  variant_id: number;
  quantity: number;
}

/** A stock row as the inventory shows it. */
export interface StockRow {
  variant_id: number;
  sku: string;
  warehouse_code: string;
  on_hand: number;
  reserved: number;
}

/** A stock row whose `reserved` differs from its live reservations' sum. */
export type MiscountedStock = RepairedStockCount & { on_hand: number };

/** Inventory rows of the merchant ($1), of a variant ($2) and a warehouse ($3) when given. */
const INVENTORY_FILTER = `s.merchant_id = $1 AND ($2::bigint IS NULL OR s.variant_id = $2)
      AND ($3::varchar IS NULL OR s.warehouse_code = $3)`;

/** What ending a reservation does to its stock rows (`s` the row, `u.q` the quantity). */
const SETTLEMENT = {
  released: 'reserved = s.reserved - u.q',
  consumed: 'reserved = s.reserved - u.q, on_hand = s.on_hand - u.q',
} as const;

/**
 * Each stock row's `reserved` against the sum of its live reservations (the ledger); filtered
 * further by appending `AND ...`.
 */
const LEDGER = `WITH live AS (
    SELECT r.warehouse_code, (l->>'variant_id')::bigint AS variant_id,
           sum((l->>'quantity')::int)::int AS quantity
      FROM ${RESERVATION} r, jsonb_array_elements(r.lines) l
     WHERE r.status = 'reserved' GROUP BY 1, 2)
  SELECT s.merchant_id, s.warehouse_code, s.variant_id, s.reserved AS reserved_before,
         coalesce(live.quantity, 0) AS reserved_after, s.on_hand
    FROM ${STOCK} s
    LEFT JOIN live ON live.variant_id = s.variant_id AND live.warehouse_code = s.warehouse_code
   WHERE s.reserved <> coalesce(live.quantity, 0)`;

/**
 * SQL of the stock-level aggregate: stock of one variant at one warehouse. Receipts raise
 * on_hand, approved orders reserve, shipments deduct both; available = on_hand - reserved. The
 * table's CHECKs keep it from going negative. Rows are always locked in variant order.
 */
@Injectable()
export class StockRepository {
  /** Adds received units to on-hand, creating the rows that are missing. */
  async receive(
    sql: Sql,
    merchantId: number,
    warehouseCode: string,
    quantities: VariantQuantity[],
  ): Promise<void> {
    await sql.query(
      `INSERT INTO ${STOCK} AS s (variant_id, warehouse_code, merchant_id, on_hand)
       SELECT v, $1, $2, q FROM unnest($3::bigint[], $4::int[]) AS u(v, q)
       ON CONFLICT (variant_id, warehouse_code)
       DO UPDATE SET on_hand = s.on_hand + excluded.on_hand, updated_at = now()`,
      [
        warehouseCode,
        merchantId,
        quantities.map((q) => q.variant_id),
        quantities.map((q) => q.quantity),
      ],
    );
  }

  /** How many inventory rows match (a null variant or warehouse matches any). */
  async countInventory(
    sql: Sql,
    merchantId: number,
    variantId: number | null,
    warehouseCode: string | null,
  ): Promise<number> {
    const [{ total }] = (await sql.query(
      `SELECT count(*) AS total FROM ${STOCK} s WHERE ${INVENTORY_FILTER}`,
      [merchantId, variantId, warehouseCode],
    )) as { total: number }[];
    return total;
  }

  /** One page of the inventory rows that match, by variant and warehouse. */
  async inventoryPage(
    sql: Sql,
    merchantId: number,
    variantId: number | null,
    warehouseCode: string | null,
    limit: number,
    offset: number,
  ): Promise<StockRow[]> {
    return (await sql.query(
      `SELECT s.variant_id, v.sku, s.warehouse_code, s.on_hand, s.reserved
       FROM ${STOCK} s JOIN ${VARIANT} v ON v.id = s.variant_id
       WHERE ${INVENTORY_FILTER} ORDER BY s.variant_id, s.warehouse_code LIMIT $4 OFFSET $5`,
      [merchantId, variantId, warehouseCode, limit, offset],
    )) as StockRow[];
  }

  /** The rows of these variants at the warehouse, locked (in variant order), with what is available. */
  async lockAvailable(
    sql: Sql,
    merchantId: number,
    warehouseCode: string,
    variantIds: number[],
  ): Promise<{ variant_id: number; available: number }[]> {
    return (await sql.query(
      `SELECT variant_id, on_hand - reserved AS available FROM ${STOCK}
       WHERE warehouse_code = $1 AND variant_id = ANY($2::bigint[]) AND merchant_id = $3
       ORDER BY variant_id FOR UPDATE`,
      [warehouseCode, variantIds, merchantId],
    )) as { variant_id: number; available: number }[];
  }

  /** Locks the rows of these variants at the warehouse, in variant order. */
  async lock(sql: Sql, warehouseCode: string, variantIds: number[]): Promise<void> {
    await sql.query(
      `SELECT 1 FROM ${STOCK} WHERE warehouse_code = $1 AND variant_id = ANY($2::bigint[])
       ORDER BY variant_id FOR UPDATE`,
      [warehouseCode, variantIds],
    );
  }

  async reserve(sql: Sql, warehouseCode: string, quantities: VariantQuantity[]): Promise<void> {
    await sql.query(
      `UPDATE ${STOCK} s SET reserved = s.reserved + u.q, updated_at = now()
       FROM unnest($2::bigint[], $3::int[]) AS u(v, q)
       WHERE s.warehouse_code = $1 AND s.variant_id = u.v`,
      [warehouseCode, quantities.map((n) => n.variant_id), quantities.map((n) => n.quantity)],
    );
  }

  /** Ends a reservation's hold on the rows: released (available again) or consumed (shipped). */
  async settle(
    sql: Sql,
    warehouseCode: string,
    quantities: VariantQuantity[],
    to: keyof typeof SETTLEMENT,
  ): Promise<void> {
    await sql.query(
      `UPDATE ${STOCK} s SET ${SETTLEMENT[to]}, updated_at = now()
       FROM unnest($2::bigint[], $3::int[]) AS u(v, q)
       WHERE s.warehouse_code = $1 AND s.variant_id = u.v`,
      [warehouseCode, quantities.map((q) => q.variant_id), quantities.map((q) => q.quantity)],
    );
  }

  /** The first warehouse (by code) that has every one of these quantities available. */
  async warehouseWithAll(
    sql: Sql,
    merchantId: number,
    needed: VariantQuantity[],
  ): Promise<string | undefined> {
    const rows = (await sql.query(
      `SELECT s.warehouse_code FROM ${STOCK} s
       JOIN unnest($2::bigint[], $3::int[]) AS u(v, q) ON u.v = s.variant_id
       WHERE s.merchant_id = $1 AND s.on_hand - s.reserved >= u.q
       GROUP BY s.warehouse_code HAVING count(*) = $4
       ORDER BY s.warehouse_code LIMIT 1`,
      [merchantId, needed.map((n) => n.variant_id), needed.map((n) => n.quantity), needed.length],
    )) as { warehouse_code: string }[];
    return rows[0]?.warehouse_code;
  }

  /** The rows of these variants at the warehouse as they are now, in variant order, with their sku. */
  async levels(
    sql: Sql,
    merchantId: number,
    warehouseCode: string,
    variantIds: number[],
  ): Promise<Omit<StockRow, 'warehouse_code'>[]> {
    return (await sql.query(
      `SELECT s.variant_id, v.sku, s.on_hand, s.reserved FROM ${STOCK} s
         JOIN ${VARIANT} v ON v.id = s.variant_id
        WHERE s.warehouse_code = $1 AND s.variant_id = ANY($2::bigint[]) AND s.merchant_id = $3
        ORDER BY s.variant_id`,
      [warehouseCode, variantIds, merchantId],
    )) as Omit<StockRow, 'warehouse_code'>[];
  }

  /** Rows (of the merchant, or all) whose `reserved` differs from their live reservations' sum. */
  async miscounted(sql: Sql, merchantId?: number): Promise<MiscountedStock[]> {
    return (await sql.query(`${LEDGER} AND ($1::bigint IS NULL OR s.merchant_id = $1)`, [
      merchantId ?? null,
    ])) as MiscountedStock[];
  }

  /** Locks these rows (variant and warehouse pairs), in variant order. */
  async lockRows(sql: Sql, keys: [number[], string[]]): Promise<void> {
    await sql.query(
      `SELECT 1 FROM ${STOCK} s JOIN unnest($1::bigint[], $2::text[]) AS k(v, w)
         ON s.variant_id = k.v AND s.warehouse_code = k.w
       ORDER BY s.variant_id FOR UPDATE OF s`,
      keys,
    );
  }

  /** Those of these rows (variant and warehouse pairs) that are still miscounted. */
  async miscountedAmong(sql: Sql, keys: [number[], string[]]): Promise<MiscountedStock[]> {
    return (await sql.query(
      `${LEDGER} AND (s.variant_id, s.warehouse_code) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))`,
      keys,
    )) as MiscountedStock[];
  }

  /** Sets each row's `reserved` to its live reservations' sum. */
  async setReserved(sql: Sql, rows: RepairedStockCount[]): Promise<void> {
    await sql.query(
      `UPDATE ${STOCK} s SET reserved = k.q, updated_at = now()
         FROM unnest($1::bigint[], $2::text[], $3::int[]) AS k(v, w, q)
        WHERE s.variant_id = k.v AND s.warehouse_code = k.w`,
      [
        rows.map((r) => r.variant_id),
        rows.map((r) => r.warehouse_code),
        rows.map((r) => r.reserved_after),
      ],
    );
  }
}
