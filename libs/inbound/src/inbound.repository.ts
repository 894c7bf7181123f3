import { Injectable } from '@nestjs/common';
import {
  CreateInboundRequest,
  InboundOrderView,
  InboundStatus,
  ShipperDto,
} from '@consign/contracts';
import { Sql } from '@consign/database';
import { ItemCount } from './inbound.receipt';

const INBOUND = '"inbound"."inbound_order"';
const ITEM = '"inbound"."inbound_item"';

interface InboundRow {
  id: number;
  status: InboundStatus;
  carrier: string | null;
  tracking_no: string | null;
  expected_inbound_date: string | null;
  actual_inbound_at: Date | null;
  package_number: number;
  reference: string | null;
  remarks: string | null;
  shipper: ShipperDto | null;
  warehouse_code: string;
  exceptional: boolean;
  feedback: string | null;
  print_times: number;
  rejection_reason: string | null;
  items: { sku_number: string; expect_quantity: number; actual_quantity: number }[];
}

/** The columns of an inbound order that its state changes need. */
export interface InboundState {
  id: number;
  status: InboundStatus;
  warehouse_code: string;
}

/** One query per inbound order view: the row and its items (in line order). */
const VIEW_COLUMNS = `i.id, i.status, i.carrier, i.tracking_no,
  to_char(i.expected_inbound_date, 'YYYY-MM-DD') AS expected_inbound_date, i.actual_inbound_at,
  i.package_number, i.reference, i.remarks, i.shipper, i.warehouse_code, i.exceptional,
  i.feedback, i.print_times, i.rejection_reason,
  (SELECT json_agg(json_build_object('sku_number', t.sku_number,
     'expect_quantity', t.expect_quantity, 'actual_quantity', t.actual_quantity) ORDER BY t.line_no)
   FROM ${ITEM} t WHERE t.inbound_id = i.id) AS items`;

/** SQL of inbound-service's schema; pages read like orders' (deferred join on the merchant index). */
@Injectable()
export class InboundRepository {
  async insert(
    sql: Sql,
    merchantId: number,
    request: CreateInboundRequest,
    variantIds: number[],
  ): Promise<number> {
    const [row] = (await sql.query(
      `INSERT INTO ${INBOUND} (merchant_id, status, carrier, tracking_no, expected_inbound_date,
         package_number, reference, remarks, shipper, warehouse_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        merchantId,
        InboundStatus.Pending,
        request.carrier ?? null,
        request.tracking_no ?? null,
        request.expected_inbound_date ?? null,
        request.package_number,
        request.reference ?? null,
        request.remarks ?? null,
        request.shipper ? JSON.stringify(request.shipper) : null,
        request.warehouse_code,
      ],
    )) as { id: number }[];
    await sql.query(
      `INSERT INTO ${ITEM} (inbound_id, line_no, sku_number, variant_id, expect_quantity)
       SELECT $1, n, s, v, q FROM unnest($2::int[], $3::varchar[], $4::bigint[], $5::int[])
         AS u(n, s, v, q)`,
      [
        row.id,
        request.items.map((_, i) => i + 1),
        request.items.map((item) => item.sku_number),
        variantIds,
        request.items.map((item) => item.quantity),
      ],
    );
    return row.id;
  }

  async view(
    sql: Sql,
    merchantId: number,
    inboundId: number,
  ): Promise<InboundOrderView | undefined> {
    const rows = (await sql.query(
      `SELECT ${VIEW_COLUMNS} FROM ${INBOUND} i WHERE i.id = $1 AND i.merchant_id = $2`,
      [inboundId, merchantId],
    )) as InboundRow[];
    return rows.length ? toInboundView(rows[0]) : undefined;
  }

  async page(
    sql: Sql,
    merchantId: number,
    page: number,
    size: number,
  ): Promise<InboundOrderView[]> {
    const rows = (await sql.query(
      `WITH page AS (
         SELECT id FROM ${INBOUND} WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3)
       SELECT ${VIEW_COLUMNS} FROM ${INBOUND} i JOIN page ON page.id = i.id ORDER BY i.id DESC`,
      [merchantId, size, (page - 1) * size],
    )) as InboundRow[];
    return rows.map(toInboundView);
  }

  async count(sql: Sql, merchantId: number): Promise<number> {
    const [row] = (await sql.query(
      `SELECT count(*) AS total FROM ${INBOUND} WHERE merchant_id = $1`,
      [merchantId],
    )) as { total: number }[];
    return row.total;
  }

  /** Locks the inbound order for a state change (the caller's transaction holds the lock). */
  async lock(sql: Sql, merchantId: number, inboundId: number): Promise<InboundState | undefined> {
    const rows = (await sql.query(
      `SELECT id, status, warehouse_code FROM ${INBOUND} WHERE id = $1 AND merchant_id = $2
       FOR UPDATE`,
      [inboundId, merchantId],
    )) as InboundState[];
    return rows[0];
  }

  async items(sql: Sql, inboundId: number): Promise<ItemCount[]> {
    return (await sql.query(
      `SELECT line_no, sku_number, variant_id, expect_quantity, actual_quantity FROM ${ITEM}
       WHERE inbound_id = $1 ORDER BY line_no`,
      [inboundId],
    )) as ItemCount[];
  }

  /** Records a receipt: the items' new counts, the status and the discrepancy notes. */
  async recordReceipt(
    sql: Sql,
    inboundId: number,
    receipt: {
      status: InboundStatus;
      exceptional: boolean;
      feedback: string | null;
      items: ItemCount[];
    },
  ): Promise<void> {
    await sql.query(
      `UPDATE ${ITEM} t SET actual_quantity = u.a
       FROM unnest($2::int[], $3::int[]) AS u(n, a)
       WHERE t.inbound_id = $1 AND t.line_no = u.n`,
      [inboundId, receipt.items.map((i) => i.line_no), receipt.items.map((i) => i.actual_quantity)],
    );
    await sql.query(
      `UPDATE ${INBOUND} SET status = $2, exceptional = $3, feedback = $4,
         actual_inbound_at = coalesce(actual_inbound_at, now()), updated_at = now()
       WHERE id = $1`,
      [inboundId, receipt.status, receipt.exceptional, receipt.feedback],
    );
  }

  async setStatus(
    sql: Sql,
    inboundId: number,
    status: InboundStatus,
    rejectionReason: string | null = null,
  ): Promise<void> {
    await sql.query(
      `UPDATE ${INBOUND} SET status = $2, rejection_reason = $3, updated_at = now() WHERE id = $1`,
      [inboundId, status, rejectionReason],
    );
  }
}

export function toInboundView(row: InboundRow): InboundOrderView {
  return {
    id: row.id,
    carrier: row.carrier,
    tracking_no: row.tracking_no,
    expected_inbound_date: row.expected_inbound_date,
    actual_inbound_at: row.actual_inbound_at ? row.actual_inbound_at.toISOString() : null,
    items: (row.items ?? []).map((item) => ({
      expect_quantity: item.expect_quantity,
      actual_quantity: item.actual_quantity,
      still_need_quantity: Math.max(item.expect_quantity - item.actual_quantity, 0),
      sku_number: item.sku_number,
    })),
    package_number: row.package_number,
    reference: row.reference,
    remarks: row.remarks,
    shipper: row.shipper,
    status: row.status,
    warehouse_code: row.warehouse_code,
    exceptional: row.exceptional,
    feedback: row.feedback,
    print_times: row.print_times,
    rejection_reason: row.rejection_reason,
  };
}
