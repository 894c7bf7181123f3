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
import { DomainError } from '@consign/core';
import { Outbox } from '@consign/messaging';
import { catalogDatabase } from './catalog.database';
import { quantitiesPerVariant } from './variant-quantities';
import { ProductRepository } from './product.repository';
import { StockRepository, StockRow } from './stock.repository';
import { announceStockLevels } from './stock-level-events';

/** Stock on hand: receipts put it there; the inventory shows it with what is reserved. */
@Injectable()
export class StockService {
  constructor(
    @Inject(catalogDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
    private readonly products: ProductRepository,
    private readonly stock: StockRepository,
  ) {}

  /** An inbound receipt: the units that arrived are on hand at the warehouse. */
  async receive(
    manager: EntityManager,
    merchantId: number,
    receipt: InboundReceivedEvent,
  ): Promise<void> {
    const quantities = quantitiesPerVariant(receipt.lines);
    const ids = quantities.map((q) => q.variant_id);
    const known = await this.products.knownVariantIds(manager, merchantId, ids);
    if (known.length !== ids.length) {
      const missing = ids.filter((id) => !known.includes(id));
      // Parked as a dead letter for an operator: stock must not appear under the wrong merchant.
      throw new DomainError(
        CatalogErrorCode.UnknownVariant,
        `inbound ${receipt.inbound_id}: variants ${missing.join(', ')} are not merchant ${merchantId}'s`,
      );
    }
    await this.stock.receive(manager, merchantId, receipt.warehouse_code, quantities);
    await announceStockLevels(
      manager,
      this.outbox,
      this.stock,
      merchantId,
      receipt.warehouse_code,
      ids,
    );
  }

  async inventory(merchantId: number, query: InventoryQuery): Promise<InventoryPageView> {
    const page = query.page!;
    const size = query.size!;
    let variantId: number | null = null;
    if (query.sku !== undefined) {
      const [variant] = await this.products.resolveVariants(this.dataSource, merchantId, [
        query.sku,
      ]);
      if (!variant) return { page, size, total: 0, list: [] };
      variantId = variant.variant_id;
    }
    const warehouseCode = query.warehouse_code ?? null;
    const [total, rows] = await Promise.all([
      this.stock.countInventory(this.dataSource, merchantId, variantId, warehouseCode),
      this.stock.inventoryPage(
        this.dataSource,
        merchantId,
        variantId,
        warehouseCode,
        size,
        (page - 1) * size,
      ),
    ]);
    return { page, size, total, list: rows.map(toInventoryView) };
  }

  resolve(merchantId: number, skuNumbers: string[]): Promise<ResolvedVariant[]> {
    return this.products.resolveVariants(this.dataSource, merchantId, skuNumbers);
  }
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
