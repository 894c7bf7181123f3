import { Injectable } from '@nestjs/common';
import { CatalogTopic, InventoryPageView, InventoryQuery } from '@consign/contracts';
import { GatewayBus } from '../http/gateway-bus';
import { pageOf } from '../http/route-inputs';
import { RouteGroup, route } from '../http/route-table';

/** Stock per variant and warehouse: on hand, reserved by orders, available. */
@Injectable()
export class InventoryRoutes implements RouteGroup {
  readonly name = 'Inventory';
  readonly tag = 'Inventory';
  readonly prefix = '2025-07/cloud/inventory';

  constructor(private readonly bus: GatewayBus) {}

  readonly routes = [
    /** Filters: `sku` (variant id or sku code), `warehouse_code`; paged like every list. */
    route({
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
      handle: ({ merchantId, correlationId, query }): Promise<InventoryPageView> =>
        this.bus.call(
          CatalogTopic.ListInventory,
          {
            merchant_id: merchantId,
            query: { ...query, ...pageOf(query) },
          },
          { key: merchantId, correlationId },
        ),
    }),
  ];
}
