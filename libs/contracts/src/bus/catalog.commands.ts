import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsNotEmpty,
  IsObject,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../common/formats';
import { NestedType } from '../common/contract-metadata';
import {
  CreateProductRequest,
  InventoryPageView,
  InventoryQuery,
  ProductView,
  ReconcileStockRequest,
  StockReconciliationReport,
  VARIANT_LIMITS,
} from '../catalog';
import { command } from './definition';

/** Commands and queries carry the merchant they act for; services never trust anything else. */
export class MerchantScoped {
  @IsId()
  merchant_id!: number;
}

export class CreateProductCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CreateProductRequest)
  product!: CreateProductRequest;
}

export class GetProductQuery extends MerchantScoped {
  @IsId()
  product_id!: number;
}

export class ListProductsQuery extends MerchantScoped {}

export class ListInventoryQuery extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => InventoryQuery)
  query!: InventoryQuery;
}

/** Which of these `sku_number`s (variant ids or sku codes) are the merchant's variants. */
export class ResolveVariantsQuery extends MerchantScoped {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(VARIANT_LIMITS.sku, { each: true })
  sku_numbers!: string[];
}

/** A `sku_number` that names a variant of the merchant. Unknown ones are left out of the reply. */
export class ResolvedVariant {
  sku_number!: string;
  variant_id!: number;
  sku!: string;
}

/** `catalog.stock.reconcile.v1`: the admin's request as it is (one merchant, or all). */
export class ReconcileStockCommand extends ReconcileStockRequest {}

/** catalog-service's request-reply topics (products, inventory, variants, reconciliation). */
export const CatalogCommands = {
  CreateProduct: command('catalog.product.create.v1', CreateProductCommand, Number, {
    idempotent: true,
  }),
  GetProduct: command('catalog.product.get.v1', GetProductQuery, ProductView),
  ListProducts: command('catalog.product.list.v1', ListProductsQuery, [ProductView]),
  ListInventory: command('catalog.inventory.list.v1', ListInventoryQuery, InventoryPageView),
  ResolveVariants: command('catalog.variant.resolve.v1', ResolveVariantsQuery, [ResolvedVariant]),
  ReconcileStock: command(
    'catalog.stock.reconcile.v1',
    ReconcileStockCommand,
    StockReconciliationReport,
  ),
};
