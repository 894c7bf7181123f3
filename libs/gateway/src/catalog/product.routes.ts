import { Injectable } from '@nestjs/common';
import { CatalogTopic, CreateProductRequest, ProductView } from '@consign/contracts';
import { LongId } from '../http/api-envelope';
import { longIdParam } from '../http/route-inputs';
import { RouteGroup, forward } from '../http/route-table';

/** Spec endpoints 12–14. */
@Injectable()
export class ProductRoutes implements RouteGroup {
  readonly name = 'Product';
  readonly tag = 'Products';
  readonly prefix = '2025-07/cloud/product';

  readonly routes = [
    /** Create a product with its variants; `data` is the new product id. */
    forward({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create a product',
      body: CreateProductRequest,
      response: {
        data: LongId,
        description: 'Created: `data` is the new product id.',
        errors: [409],
      },
      topic: CatalogTopic.CreateProduct,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, product: body }),
    }),
    /** Every product of the merchant, newest first. */
    forward({
      name: 'list',
      method: 'GET',
      path: 'all',
      summary: 'List all products',
      response: {
        data: [ProductView],
        description: '`data` is every product of the merchant, newest first.',
      },
      topic: CatalogTopic.ListProducts,
      request: ({ merchantId }) => ({ merchant_id: merchantId }),
    }),
    /** One product with its variants. */
    forward({
      name: 'get',
      method: 'GET',
      path: ':product_id',
      summary: 'Get a product',
      params: { product_id: longIdParam('The product id.') },
      response: { data: ProductView, description: '`data` is the product with its variants.' },
      topic: CatalogTopic.GetProduct,
      request: ({ merchantId, params }) => ({
        merchant_id: merchantId,
        product_id: params.product_id,
      }),
      key: ({ params }) => params.product_id,
    }),
  ];
}
