import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCountryCode } from '../common/formats';
import { RATING_LIMITS } from './rating.limits';

/** Destination of an order calculation (`dest_address`). */
export class CalcDestAddressDto {
  /** ISO 3166-1 alpha-2. */
  @IsCountryCode()
  country_code!: string;

  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.city)
  city?: string;

  /** Postal code. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.zip_code)
  zip_code?: string;
}

/** A candidate origin warehouse of an order calculation (`origin_addresses[]`). */
export class CalcOriginAddressDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(RATING_LIMITS.warehouse_code)
  warehouse_code!: string;

  /** ISO 3166-1 alpha-2. */
  @IsCountryCode()
  country_code!: string;

  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.city)
  city?: string;

  /** Postal code. */
  @IsOptional()
  @IsString()
  @MaxLength(RATING_LIMITS.zip_code)
  zip_code?: string;
}
