import {
  IsBoolean,
  IsEnum,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  Min,
} from 'class-validator';
import { Transformed } from '../common/contract-metadata';
import { IsDecimal } from '../common/decimal';
import { VARIANT_LIMITS } from './catalog.limits';
import { IsOptionMap, MaxJsonLength } from './catalog.validator';
import { VariantUnit } from './variant-unit';
import { WeightUnit } from './weight-unit';

/** A variant in the create-product request (endpoint 12 `variants[]`). */
export class CreateVariantRequest {
  /** Stock keeping unit code; unique within the product. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(VARIANT_LIMITS.sku)
  sku!: string;

  /** The variant's name, e.g. `S` or `Red / M`. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(VARIANT_LIMITS.title)
  title!: string;

  /** Selling price, Number(12,2). */
  @IsDecimal()
  @Min(0)
  retail_price!: number;

  /** Price before a discount ("compare at"), Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  compare_at_price?: number;

  /** Weight in `weight_unit`, Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  weight?: number;

  /** Unit of `weight`. */
  @IsEnum(WeightUnit)
  weight_unit!: WeightUnit;

  /** Whether the variant needs shipping. Defaults to true (also when null). */
  @Transformed(({ value }) => value ?? true)
  @IsBoolean()
  requires_shipping?: boolean = true;

  /** What one unit of the variant is: a piece (`pcs`) or a kilogram (`kg`). */
  @IsEnum(VariantUnit)
  unit!: VariantUnit;

  /** The variant's value of each product option, e.g. `{"Color": "Red"}`. */
  @IsOptional()
  @IsOptionMap('string')
  @MaxJsonLength(VARIANT_LIMITS.options)
  options?: Record<string, string>;
}
