import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsPositive,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsDecimal } from '../common/decimal';
import { IsCountryCode, MAX_COUNT } from '../common/formats';
import { LABEL_LIMITS, LABEL_MEASURE } from './label.limits';

const { precision, scale } = LABEL_MEASURE;

/** A line of a label request (`items[]`); used for customs clearance and freight. */
export class LabelItemDto {
  /** What the item is; also its customs description when `customs_description` is absent. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_LIMITS.item.product_name)
  product_name!: string;

  /** Number of units, at least 1. */
  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  quantity!: number;

  /** Weight per unit, in the label's `weight_unit`; up to 3 decimals. */
  @IsDecimal(precision, scale)
  @IsPositive()
  weight!: number;

  /** In the label's `length_unit`; up to 3 decimals. */
  @IsOptional()
  @IsDecimal(precision, scale)
  @IsPositive()
  length?: number | null;

  /** In the label's `length_unit`; up to 3 decimals. */
  @IsOptional()
  @IsDecimal(precision, scale)
  @IsPositive()
  width?: number | null;

  /** In the label's `length_unit`; up to 3 decimals. */
  @IsOptional()
  @IsDecimal(precision, scale)
  @IsPositive()
  height?: number | null;

  /** Selling price per unit, Number(12,2). */
  @IsDecimal()
  @Min(0)
  unit_price!: number;

  /** Customs value per unit, used for clearance and duty, Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  declared_unit_value?: number;

  /** Total tax of the line, Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  tax?: number;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.item.sku_code)
  sku_code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.item.brand)
  brand?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.item.unit)
  unit?: string;

  /** Harmonized System (customs tariff) code. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.item.hs_code)
  hs_code?: string;

  /** The item's description on the customs declaration (CN22 or CN23). */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.item.customs_description)
  customs_description?: string;

  /** Country of origin, ISO 3166-1 alpha-2. */
  @IsOptional()
  @IsCountryCode()
  origin_country_code?: string;
}
