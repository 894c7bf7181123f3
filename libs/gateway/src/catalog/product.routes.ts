import { Injectable } from '@nestjs/common';
import { CatalogTopic, CreateProductRequest, ProductView } from '@consign/contracts';
import { LongId } from '../http/api-envelope';
import { longIdParam } from '../http/route-inputs';
import { GatewayBus } from '../http/gateway-bus';
import { RouteGroup, route } from '../http/route-table';

/** Spec endpoints 12–14. */
@Injectable()
export class ProductRoutes implements RouteGroup {
  readonly name = 'Product';
  readonly tag = 'Products';
  readonly prefix = '2025-07/cloud/product';

  constructor(private readonly bus: GatewayBus) {}

  readonly routes = [
    /** Create a product with its variants; `data` is the new product id. */
    route({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create a product',
      idempotent: true,
      body: CreateProductRequest,
      response: {
        data: LongId,
        description: 'Created: `data` is the new product id.',
        errors: [409],
      },
      handle: ({ merchantId, correlationId, command, body }): Promise<number> =>
        this.bus.call(
          CatalogTopic.CreateProduct,
          { merchant_id: merchantId, product: body },
          { key: merchantId, correlationId, command },
        ),
    }),
    /** Every product of the merchant, newest first. */
    route({
      name: 'list',
      method: 'GET',
      path: 'all',
      summary: 'List all products',
      response: {
        data: [ProductView],
        description: '`data` is every product of the merchant, newest first.',
      },
      handle: ({ merchantId, correlationId }): Promise<ProductView[]> =>
        this.bus.call(
          CatalogTopic.ListProducts,
          { merchant_id: merchantId },
          { key: merchantId, correlationId },
        ),
    }),
    /** One product with its variants. */
    route({
      name: 'get',
      method: 'GET',
      path: ':product_id',
      summary: 'Get a product',
      params: { product_id: longIdParam('The product id.') },
      response: { data: ProductView, description: '`data` is the product with its variants.' },
      handle: ({ merchantId, correlationId, params }): Promise<ProductView> =>
        this.bus.call(
          CatalogTopic.GetProduct,
          { merchant_id: merchantId, product_id: params.product_id },
          { key: params.product_id, correlationId },
        ),
    }),
  ];
}
