import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsEnum,
  IsIn,
  IsObject,
  IsOptional,
  IsPositive,
  Min,
  ValidateNested,
} from 'class-validator';
import { NestedList } from '../common/nested-list';
import { NestedType, Transformed } from '../common/contract-metadata';
import { INPUT_LIMITS } from '../common/input-limits';
import { IsDecimal } from '../common/decimal';
import { IsCurrencyCode } from '../common/formats';
import { CalcDestAddressDto, CalcOriginAddressDto } from './calc-address.dto';
import { ContentFlag } from './content-flag';
import { DimensionDto } from './dimension.dto';
import { RATING_WEIGHT_UNITS, RatingWeightUnit } from './rating-weight-unit';

const notApplicableWhenAbsent = ({ value }: { value: unknown }) =>
  value ?? ContentFlag.NotApplicable;

/** Body of PUT /2025-07/cloud/calculate/order: one cost result per candidate origin. */
export class CalculateOrderRequest {
  /** Where the order goes: the country picks the services, the postal code and city their zone. */
  @IsObject()
  @ValidateNested()
  @NestedType(() => CalcDestAddressDto)
  dest_address!: CalcDestAddressDto;

  /** Candidate origin warehouses; at least one. */
  @NestedList(() => CalcOriginAddressDto, ArrayMaxSize(INPUT_LIMITS.array_items), ArrayNotEmpty())
  origin_addresses!: CalcOriginAddressDto[];

  /** Number(12,2), in `weight_unit`. */
  @IsDecimal()
  @IsPositive()
  weight!: number;

  /** kg or lb. */
  @IsIn(RATING_WEIGHT_UNITS)
  weight_unit!: RatingWeightUnit;

  /** Defaults to "Not Applicable" (also when null). */
  @Transformed(notApplicableWhenAbsent)
  @IsEnum(ContentFlag)
  alcohol?: ContentFlag = ContentFlag.NotApplicable;

  /** Defaults to "Not Applicable" (also when null). */
  @Transformed(notApplicableWhenAbsent)
  @IsEnum(ContentFlag)
  battery?: ContentFlag = ContentFlag.NotApplicable;

  /** Defaults to "Not Applicable" (also when null). */
  @Transformed(notApplicableWhenAbsent)
  @IsEnum(ContentFlag)
  liquid?: ContentFlag = ContentFlag.NotApplicable;

  /** Declared value, Number(12,2), in `currency`. */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  declared_value?: number;

  /** ISO 4217 currency code of the declared value. */
  @IsOptional()
  @IsCurrencyCode()
  currency?: string;

  /**
   * Package size. Where a service charges volumetric weight, it bills the heavier of the actual
   * weight and length × width × height / its `volumetric_divisor` (`GET /2025-07/cloud/service`).
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => DimensionDto)
  dimension?: DimensionDto;
}
