import { EntityManager } from 'typeorm';
import { StockEvent } from '@consign/contracts';
import { Outbox } from '@consign/platform';

/**
 * Announces (`stock.level_changed.v1`, in the caller's transaction) the inventory rows of these
 * variants at the warehouse as the change left them, shaped as GET inventory answers them: what
 * webhooks deliver.
 */
export async function announceStockLevels(
  manager: EntityManager,
  outbox: Outbox,
  merchantId: number,
  warehouseCode: string,
  variantIds: number[],
): Promise<void> {
  if (variantIds.length === 0) return;
  const rows = (await manager.query(
    `SELECT s.variant_id, v.sku, s.on_hand, s.reserved FROM "catalog"."stock_level" s
       JOIN "catalog"."variant" v ON v.id = s.variant_id
      WHERE s.warehouse_code = $1 AND s.variant_id = ANY($2::bigint[]) AND s.merchant_id = $3
      ORDER BY s.variant_id`,
    [warehouseCode, variantIds, merchantId],
  )) as { variant_id: number; sku: string; on_hand: number; reserved: number }[];
  if (rows.length === 0) return;
  await outbox.add(manager, StockEvent.LevelChanged, {
    merchantId,
    aggregateId: `${warehouseCode}`,
    payload: {
      warehouse_code: warehouseCode,
      levels: rows.map((row) => ({
        sku_number: String(row.variant_id),
        sku: row.sku,
        warehouse_code: warehouseCode,
        on_hand: row.on_hand,
        reserved: row.reserved,
        available: row.on_hand - row.reserved,
      })),
    },
  });
}
