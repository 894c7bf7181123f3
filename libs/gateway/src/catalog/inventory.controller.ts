import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Get, Query } from '@nestjs/common';
import { CatalogTopic, InventoryPageView, InventoryQuery, PAGE_LIMITS } from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import { ApiEnvelope } from '../http/api-envelope';
import { contract } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';

/** Stock per variant and warehouse: on hand, reserved by orders, available. */
@ApiTags('Inventory')
@ApiController('2025-07/cloud/inventory')
export class InventoryController {
  constructor(private readonly bus: GatewayBus) {}

  /** Filters: `sku` (variant id or sku code), `warehouse_code`; paged like every list. */
  @Get()
  @ApiOperation({ summary: 'List inventory' })
  @ApiEnvelope(InventoryPageView, {
    description:
      '`data` is one page of stock levels per SKU and warehouse: on hand, reserved and available.',
  })
  list(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Query(contract(InventoryQuery)) query: InventoryQuery,
  ): Promise<InventoryPageView> {
    query.page ??= PAGE_LIMITS.default_page;
    query.size ??= PAGE_LIMITS.default_size;
    return this.bus.call(
      CatalogTopic.ListInventory,
      { merchant_id: merchantId, query },
      { key: merchantId, correlationId },
    );
  }
}
