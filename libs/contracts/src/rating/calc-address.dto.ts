import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCountryCode } from '../common/formats';
import { RATING_LIMITS } from './rating.limits';

/** Destination of an order calculation (`dest_address`). */
export class CalcDestAddressDto {
  /** ISO 3166-1 alpha-2. */
  @IsCountryCode()
  country_code!: string;

  /** City: a service's zone rules may name cities (a rule by postal code comes first). */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.city)
  city?: string;

  /** Postal code: picks the zone by a service's postal-prefix rules, and remote-area surcharges. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.zip_code)
  zip_code?: string;
}

/** A candidate origin warehouse of an order calculation (`origin_addresses[]`). */
export class CalcOriginAddressDto {
  /** A warehouse's code (`GET /2025-07/cloud/warehouse`); it must be in `country_code`. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(RATING_LIMITS.warehouse_code)
  warehouse_code!: string;

  /** ISO 3166-1 alpha-2. */
  @IsCountryCode()
  country_code!: string;

  /** City, as given: the rates go by the warehouse and its country. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.city)
  city?: string;

  /** Postal code, as given (see `city`). */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.zip_code)
  zip_code?: string;
}
