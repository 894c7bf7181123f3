import { Injectable } from '@nestjs/common';
import { CatalogTopic, InventoryPageView, InventoryQuery } from '@consign/contracts';
import { pageOf } from '../http/route-inputs';
import { RouteGroup, forward } from '../http/route-table';

/** Stock per variant and warehouse: on hand, reserved by orders, available. */
@Injectable()
export class InventoryRoutes implements RouteGroup {
  readonly name = 'Inventory';
  readonly tag = 'Inventory';
  readonly prefix = '2025-07/cloud/inventory';

  readonly routes = [
    /** Filters: `sku` (variant id or sku code), `warehouse_code`; paged like every list. */
    forward({
      name: 'list',
      method: 'GET',
      path: '',
      summary: 'List inventory',
      query: InventoryQuery,
      response: {
        data: InventoryPageView,
        description:
          '`data` is one page of stock levels per SKU and warehouse: on hand, reserved and available.',
      },
      topic: CatalogTopic.ListInventory,
      request: ({ merchantId, query }) => ({
        merchant_id: merchantId,
        query: { ...query, ...pageOf(query) },
      }),
    }),
  ];
}
