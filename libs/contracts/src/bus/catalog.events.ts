import { event } from './definition';

/** A variant of a new product, as `catalog.product.created.v1` lists it. */
export class CreatedVariant {
  id!: number;
  sku!: string;
}

/** `catalog.product.created.v1`: a merchant created a product (a class: the topic registry names it). */
export class ProductCreatedEvent {
  product_id!: number;
  variants!: CreatedVariant[];
}

/** catalog-service's product events (its stock events are StockEvents). */
export const CatalogEvents = {
  ProductCreated: event('catalog.product.created.v1', ProductCreatedEvent),
};
