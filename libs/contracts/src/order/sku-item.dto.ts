import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsDecimal } from '../common/decimal';
import { MAX_COUNT } from '../common/formats';
import { ORDER_LIMITS } from './order.limits';

/** A line of an order (`sku_items[]`). */
export class SkuItemDto {
  /** The product variant id (a variant's sku code is also accepted). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.sku_item.sku_number)
  sku_number!: string;

  /** Number of units, at least 1. */
  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  quantity!: number;

  /** Unit price, Number(12,2). */
  @IsDecimal()
  @Min(0)
  price!: number;

  /** Discount, Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  discount?: number;

  /** Tax rate as a fraction (5% is 0.05), Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  @Max(ORDER_LIMITS.sku_item.max_tax)
  tax?: number | null;
}
