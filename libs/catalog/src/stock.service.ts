import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  CatalogErrorCode,
  InboundReceivedEvent,
  InventoryPageView,
  InventoryQuery,
  InventoryView,
  ResolvedVariant,
} from '@consign/contracts';
import { DomainError, Outbox } from '@consign/platform';
import { catalogDatabase } from './catalog.database';
import { quantitiesPerVariant, resolveVariants } from './variant-resolver';
import { announceStockLevels } from './stock-level-events';

const STOCK = '"catalog"."stock_level"';
const VARIANT = '"catalog"."variant"';

/** Stock on hand: receipts put it there; the inventory shows it with what is reserved. */
@Injectable()
export class StockService {
  constructor(
    @Inject(catalogDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
  ) {}

  /** An inbound receipt: the units that arrived are on hand at the warehouse. */
  async receive(
    manager: EntityManager,
    merchantId: number,
    receipt: InboundReceivedEvent,
  ): Promise<void> {
    const quantities = quantitiesPerVariant(receipt.lines);
    const ids = quantities.map((q) => q.variant_id);
    const known = (await manager.query(
      `SELECT id FROM ${VARIANT} WHERE merchant_id = $1 AND id = ANY($2::bigint[])`,
      [merchantId, ids],
    )) as { id: number }[];
    if (known.length !== ids.length) {
      const missing = ids.filter((id) => !known.some((k) => k.id === id));
      // Parked as a dead letter for an operator: stock must not appear under the wrong merchant.
      throw new DomainError(
        CatalogErrorCode.UnknownVariant,
        `inbound ${receipt.inbound_id}: variants ${missing.join(', ')} are not merchant ${merchantId}'s`,
      );
    }
    await manager.query(
      `INSERT INTO ${STOCK} AS s (variant_id, warehouse_code, merchant_id, on_hand)
       SELECT v, $1, $2, q FROM unnest($3::bigint[], $4::int[]) AS u(v, q)
       ON CONFLICT (variant_id, warehouse_code)
       DO UPDATE SET on_hand = s.on_hand + excluded.on_hand, updated_at = now()`,
      [receipt.warehouse_code, merchantId, ids, quantities.map((q) => q.quantity)],
    );
    await announceStockLevels(manager, this.outbox, merchantId, receipt.warehouse_code, ids);
  }

  async inventory(merchantId: number, query: InventoryQuery): Promise<InventoryPageView> {
    const page = query.page!;
    const size = query.size!;
    let variantId: number | null = null;
    if (query.sku !== undefined) {
      const [variant] = await resolveVariants(this.dataSource, merchantId, [query.sku]);
      if (!variant) return { page, size, total: 0, list: [] };
      variantId = variant.variant_id;
    }
    const filter = `s.merchant_id = $1 AND ($2::bigint IS NULL OR s.variant_id = $2)
      AND ($3::varchar IS NULL OR s.warehouse_code = $3)`;
    const params = [merchantId, variantId, query.warehouse_code ?? null];
    const [[{ total }], rows] = (await Promise.all([
      this.dataSource.query(`SELECT count(*) AS total FROM ${STOCK} s WHERE ${filter}`, params),
      this.dataSource.query(
        `SELECT s.variant_id, v.sku, s.warehouse_code, s.on_hand, s.reserved
         FROM ${STOCK} s JOIN ${VARIANT} v ON v.id = s.variant_id
         WHERE ${filter} ORDER BY s.variant_id, s.warehouse_code LIMIT $4 OFFSET $5`,
        [...params, size, (page - 1) * size],
      ),
    ])) as [{ total: number }[], StockRow[]];
    return { page, size, total, list: rows.map(toInventoryView) };
  }

  resolve(merchantId: number, skuNumbers: string[]): Promise<ResolvedVariant[]> {
    return resolveVariants(this.dataSource, merchantId, skuNumbers);
  }
}

interface StockRow {
  variant_id: number;
  sku: string;
  warehouse_code: string;
  on_hand: number;
  reserved: number;
}

function toInventoryView(row: StockRow): InventoryView {
  return {
    sku_number: String(row.variant_id),
    sku: row.sku,
    warehouse_code: row.warehouse_code,
    on_hand: row.on_hand,
    reserved: row.reserved,
    available: row.on_hand - row.reserved,
  };
}
