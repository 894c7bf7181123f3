import 'reflect-metadata';
import {
  IsEnum,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NestedType } from '../common/contract-metadata';
import { IsDecimal } from '../common/decimal';
import { IsCountryCode, IsCurrencyCode } from '../common/formats';
import { DimensionDto } from './dimension.dto';
import { IncoTerm } from './inco-term';
import { RATING_LIMITS } from './rating.limits';
import { RATING_WEIGHT_UNITS, RatingWeightUnit } from './rating-weight-unit';

const isGiven = (value: unknown) => value !== undefined && value !== null;

/** `weight_uom` may repeat `weight_unit`, but not contradict it. */
function AgreesWithWeightUnit(): PropertyDecorator {
  return ValidateBy({
    name: 'agreesWithWeightUnit',
    validator: {
      validate: (value: unknown, args) => {
        const weightUnit = (args?.object as CalculateFreightRequest | undefined)?.weight_unit;
        return !isGiven(weightUnit) || weightUnit === value;
      },
      defaultMessage: () => '$property must equal weight_unit when both are given',
    },
  });
}

/**
 * Body of PUT /2025-07/cloud/calculate/freight. The spec's table names the weight unit
 * `weight_unit`, its sample `weight_uom`: both are accepted, exactly one unit must be given
 * (resolve it with `freightWeightUnit`).
 */
export class CalculateFreightRequest {
  /** ISO 3166-1 alpha-2. */
  @IsCountryCode()
  dest_country_code!: string;

  /** City: a service's zone rules may name cities (a rule by postal code comes first). */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.city)
  dest_city?: string;

  /** Postal code: picks the zone by a service's postal-prefix rules, and remote-area surcharges. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.zip_code)
  dest_zip_code?: string;

  /** ISO 3166-1 alpha-2. */
  @IsCountryCode()
  origin_country_code!: string;

  /** City, as given: the rates go by the origin country. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.city)
  origin_city?: string;

  /** Postal code, as given: the rates go by the origin country. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.zip_code)
  origin_zip_code?: string;

  /**
   * Package size. Where a service charges volumetric weight, it bills the heavier of the actual
   * weight and length × width × height / its `volumetric_divisor` (`GET /2025-07/cloud/service`).
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => DimensionDto)
  dimension?: DimensionDto;

  /** Number(12,2), in the weight unit. */
  @IsDecimal()
  @IsPositive()
  weight!: number;

  /** kg or lb. Required unless `weight_uom` is given. */
  @ValidateIf(
    (request: CalculateFreightRequest) =>
      isGiven(request.weight_unit) || !isGiven(request.weight_uom),
  )
  @IsIn(RATING_WEIGHT_UNITS)
  weight_unit?: RatingWeightUnit;

  /** Alternative name of `weight_unit` (the spec's sample request uses it). */
  @ValidateIf((request: CalculateFreightRequest) => isGiven(request.weight_uom))
  @IsIn(RATING_WEIGHT_UNITS)
  @AgreesWithWeightUnit()
  weight_uom?: RatingWeightUnit;

  /** Carrier service code. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(RATING_LIMITS.service_code)
  service_code!: string;

  /** DAP or DDP. */
  @IsOptional()
  @IsEnum(IncoTerm)
  inco_term?: IncoTerm;

  /**
   * Extension, as in calculate/order: the parcel's declared value, Number(12,2), in `currency`.
   * DDP across a customs border then collects duty and VAT on it; without it, only the DDP fee.
   */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  declared_value?: number;

  /** ISO 4217 currency code of the declared value (USD when not given, as calculate/order). */
  @IsOptional()
  @IsCurrencyCode()
  currency?: string;
}

/** The weight unit of a validated freight request, whichever of the two names carried it. */
export function freightWeightUnit(request: CalculateFreightRequest): RatingWeightUnit {
  const unit = request.weight_unit ?? request.weight_uom;
  if (!unit) throw new Error('freight request has no weight unit: validate it first');
  return unit;
}
