import { ArrayMaxSize, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsId } from '../common/formats';
import { VARIANT_LIMITS } from '../catalog/catalog.limits';
import { INPUT_LIMITS } from '../common/input-limits';
import { NestedList } from '../common/nested-list';
import { event } from './definition';

/** A variant of a new product, as `catalog.product.created.v1` lists it. */
export class CreatedVariant {
  @IsId()
  id!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(VARIANT_LIMITS.sku)
  sku!: string;
}

/** `catalog.product.created.v1`: a merchant created a product, with its variants (maybe none). */
export class ProductCreatedEvent {
  @IsId()
  product_id!: number;

  @NestedList(() => CreatedVariant, ArrayMaxSize(INPUT_LIMITS.array_items))
  variants!: CreatedVariant[];
}

/** catalog-service's product events (its stock events are StockEvents). */
export const CatalogEvents = {
  ProductCreated: event('catalog.product.created.v1', ProductCreatedEvent),
};
