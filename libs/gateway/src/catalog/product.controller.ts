import { Body, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CatalogTopic, CreateProductRequest, ProductView } from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import type { CommandStamp } from '@consign/bus';
import { ApiEnvelope, LongId } from '../http/api-envelope';
import { contract, idParam } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { Command, Idempotent } from '../idempotency/idempotency.hooks';
import { ApiController } from '../http/direct-routes';

/** Spec endpoints 12–14. */
@ApiTags('Products')
@ApiController('2025-07/cloud/product')
export class ProductController {
  constructor(private readonly bus: GatewayBus) {}

  /** Create a product with its variants; `data` is the new product id. */
  @Post()
  @ApiOperation({ summary: 'Create a product' })
  @Idempotent()
  @ApiEnvelope(LongId, { description: 'Created: `data` is the new product id.', errors: [409] })
  create(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Body(contract(CreateProductRequest)) product: CreateProductRequest,
  ): Promise<number> {
    return this.bus.call(
      CatalogTopic.CreateProduct,
      { merchant_id: merchantId, product },
      { key: merchantId, correlationId, command },
    );
  }

  /** Every product of the merchant, newest first. */
  @Get('all')
  @ApiOperation({ summary: 'List all products' })
  @ApiEnvelope([ProductView], {
    description: '`data` is every product of the merchant, newest first.',
  })
  list(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
  ): Promise<ProductView[]> {
    return this.bus.call(
      CatalogTopic.ListProducts,
      { merchant_id: merchantId },
      { key: merchantId, correlationId },
    );
  }

  /** One product with its variants. */
  @Get(':product_id')
  @ApiOperation({ summary: 'Get a product' })
  @ApiParam({ name: 'product_id', description: 'The product id.', schema: LongId })
  @ApiEnvelope(ProductView, { description: '`data` is the product with its variants.' })
  get(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('product_id', idParam('product_id')) productId: number,
  ): Promise<ProductView> {
    return this.bus.call(
      CatalogTopic.GetProduct,
      { merchant_id: merchantId, product_id: productId },
      { key: productId, correlationId },
    );
  }
}
