import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { CreateProductRequest, InventoryQuery, VARIANT_LIMITS } from '../catalog';

/** Commands and queries carry the merchant they act for; services never trust anything else. */
export class MerchantScoped {
  @IsInt()
  @Min(1)
  merchant_id!: number;
}

export class CreateProductCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateProductRequest)
  product!: CreateProductRequest;
}

export class GetProductQuery extends MerchantScoped {
  @IsInt()
  @Min(1)
  product_id!: number;
}

export class ListProductsQuery extends MerchantScoped {}

export class ListInventoryQuery extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => InventoryQuery)
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

/**
 * Compare catalog's live stock reservations with the states of their orders and repair what can
 * be proved: one merchant, or every merchant when `merchant_id` is absent (the scheduled job).
 */
export class ReconcileStockCommand {
  @IsOptional()
  @IsInt()
  @Min(1)
  merchant_id?: number;
}

/** One reservation the reconciliation looked at and what it did about it. */
export class ReconciledReservation {
  merchant_id!: number;
  order_id!: number;
  warehouse_code!: string | null;
  /** The order's state at order-service; null when order-service does not know the order. */
  order_status!: string | null;
  /** `released` (order Cancelled), `consumed` (order shipped) or `reported` (cannot be proved). */
  action!: 'released' | 'consumed' | 'reported';
}

/** A stock row whose `reserved` count disagreed with its live reservations, and was set to them. */
export class RepairedStockCount {
  merchant_id!: number;
  warehouse_code!: string;
  variant_id!: number;
  reserved_before!: number;
  reserved_after!: number;
}

export class StockReconciliationReport {
  /** Live reservations compared with their orders. */
  checked!: number;
  reservations!: ReconciledReservation[];
  counts!: RepairedStockCount[];
}
