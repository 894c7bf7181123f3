import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { COUNTRY_CODE_LENGTH, IsCountryCode, IsEmailAddress } from './formats';

/**
 * The three address shapes of the spec. They look alike but their limits and required sets
 * differ per table (label address zip 16 / district 64, order address zip 15 / district 60,
 * inbound shipper with its own required set), so each has its own class and limits.
 */

/** Label address object (`shipping_address` = recipient, `shipper_address` = sender of a label). */
export const LABEL_ADDRESS_LIMITS = {
  first_name: 64,
  last_name: 64,
  company_name: 128,
  phone: 32,
  email: 128,
  address1: 256,
  address2: 256,
  district: 64,
  city: 64,
  province: 64,
  province_code: 32,
  zip_code: 16,
  /** Not in the spec's label address table: the order address's 60 (house limit). */
  country: 60,
  country_code: COUNTRY_CODE_LENGTH,
} as const;

/** Order address object (`shipping_address` and `billing_address` of an order). */
export const ORDER_ADDRESS_LIMITS = {
  first_name: 64,
  last_name: 64,
  email: 128,
  phone: 32,
  address1: 256,
  address2: 256,
  zip_code: 15,
  district: 60,
  city: 60,
  province: 60,
  country: 60,
  country_code: COUNTRY_CODE_LENGTH,
} as const;

/**
 * Inbound order `shipper`. The spec gives `company_name` no maximum length: the label address's
 * 128 is the house limit.
 */
export const SHIPPER_LIMITS = {
  first_name: 64,
  last_name: 64,
  email: 128,
  phone: 32,
  address1: 256,
  address2: 256,
  zip_code: 15,
  district: 60,
  city: 60,
  province: 60,
  country: 60,
  company_name: 128,
} as const;

/** Label address object. */
export class LabelAddressDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_ADDRESS_LIMITS.first_name)
  first_name!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_ADDRESS_LIMITS.last_name)
  last_name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.company_name)
  company_name?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_ADDRESS_LIMITS.phone)
  phone!: string;

  /** Must contain `@`. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.email)
  @IsEmailAddress()
  email?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_ADDRESS_LIMITS.address1)
  address1!: string;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.address2)
  address2?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.district)
  district?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_ADDRESS_LIMITS.city)
  city!: string;

  /** State / province. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.province)
  province?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.province_code)
  province_code?: string;

  /** Postal code. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_ADDRESS_LIMITS.zip_code)
  zip_code?: string;

  /** Full country or region name. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_ADDRESS_LIMITS.country)
  country!: string;

  /** ISO 3166-1 alpha-2 country code, e.g. `US`. */
  @IsCountryCode()
  country_code!: string;
}

/** Order address object. */
export class OrderAddressDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.first_name)
  first_name!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.last_name)
  last_name!: string;

  /** Must contain `@`. */
  @IsString()
  @MaxLength(ORDER_ADDRESS_LIMITS.email)
  @IsEmailAddress()
  email!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.phone)
  phone!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.address1)
  address1!: string;

  @IsOptional()
  @IsString()
  @MaxLength(ORDER_ADDRESS_LIMITS.address2)
  address2?: string;

  /** Postal code. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.zip_code)
  zip_code!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.district)
  district!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.city)
  city!: string;

  /** State / province. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_ADDRESS_LIMITS.province)
  province!: string;

  /** Country or region name. Accepted in requests; absent in the spec's sample responses. */
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_ADDRESS_LIMITS.country)
  country?: string;

  /** ISO 3166-1 alpha-2 country code, e.g. `US`. */
  @IsCountryCode()
  country_code!: string;
}

/** Inbound order shipper (the sender of the goods to the warehouse). */
export class ShipperDto {
  @IsOptional()
  @IsString()
  @MaxLength(SHIPPER_LIMITS.first_name)
  first_name?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.last_name)
  last_name!: string;

  /** Must contain `@`. */
  @IsOptional()
  @IsString()
  @MaxLength(SHIPPER_LIMITS.email)
  @IsEmailAddress()
  email?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.phone)
  phone!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.address1)
  address1!: string;

  @IsOptional()
  @IsString()
  @MaxLength(SHIPPER_LIMITS.address2)
  address2?: string;

  /** Postal code. */
  @IsOptional()
  @IsString()
  @MaxLength(SHIPPER_LIMITS.zip_code)
  zip_code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(SHIPPER_LIMITS.district)
  district?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.city)
  city!: string;

  /** State / province. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.province)
  province!: string;

  /** Country or region name. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.country)
  country!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(SHIPPER_LIMITS.company_name)
  company_name!: string;
}
