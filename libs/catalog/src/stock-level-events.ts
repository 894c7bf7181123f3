import { EntityManager } from 'typeorm';
import { StockEvent } from '@consign/contracts';
import { Outbox } from '@consign/messaging';
import { StockRepository } from './stock.repository';

/**
 * Announces (`stock.level_changed.v1`, in the caller's transaction) the inventory rows of these
 * variants at the warehouse as the change left them, shaped as GET inventory answers them: what
 * webhooks deliver.
 */
export async function announceStockLevels(
  manager: EntityManager,
  outbox: Outbox,
  stock: StockRepository,
  merchantId: number,
  warehouseCode: string,
  variantIds: number[],
): Promise<void> {
  if (variantIds.length === 0) return;
  const rows = await stock.levels(manager, merchantId, warehouseCode, variantIds);
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
