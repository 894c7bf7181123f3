import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsEnum,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NestedType } from '../common/contract-metadata';
import { NestedList } from '../common/nested-list';
import { INPUT_LIMITS } from '../common/input-limits';
import { WeightUnit } from '../catalog/weight-unit';
import { LabelAddressDto } from '../common/address.dto';
import { IsDecimal } from '../common/decimal';
import { IsCurrencyCode, IsIsoDateTime } from '../common/formats';
import { LabelItemDto } from './label-item.dto';
import { LabelMetadataDto } from './label-metadata.dto';
import { LabelServiceDto } from './label-service.dto';
import { LABEL_LIMITS, LABEL_MEASURE } from './label.limits';
import { LengthUnit } from './length-unit';
import { PackageAttributesDto } from './package-attributes.dto';

const { precision, scale } = LABEL_MEASURE;

type Dimensions = { length?: unknown; width?: unknown; height?: unknown };

function hasDimension(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { length, width, height } = value as Dimensions;
  return [length, width, height].some((dimension) => dimension !== undefined && dimension !== null);
}

/** Whether the label or one of its items gives a length, width or height. */
export function labelHasDimensions(request: CreateLabelRequest): boolean {
  return (
    hasDimension(request) || (Array.isArray(request.items) && request.items.some(hasDimension))
  );
}

/** Body of POST /2026-05/cloud/label. */
export class CreateLabelRequest {
  /** Recipient. */
  @IsObject()
  @ValidateNested()
  @NestedType(() => LabelAddressDto)
  shipping_address!: LabelAddressDto;

  /** Sender. */
  @IsObject()
  @ValidateNested()
  @NestedType(() => LabelAddressDto)
  shipper_address!: LabelAddressDto;

  /** Merchant order reference. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_LIMITS.reference)
  reference!: string;

  /** ISO 4217 currency code of the prices and values. */
  @IsCurrencyCode()
  currency!: string;

  /** Unit of every weight in the request. */
  @IsEnum(WeightUnit)
  weight_unit!: WeightUnit;

  /** In `length_unit`; up to 3 decimals; null allowed. */
  @IsOptional()
  @IsDecimal(precision, scale)
  @IsPositive()
  length?: number | null;

  /** In `length_unit`; up to 3 decimals; null allowed. */
  @IsOptional()
  @IsDecimal(precision, scale)
  @IsPositive()
  width?: number | null;

  /** In `length_unit`; up to 3 decimals; null allowed. */
  @IsOptional()
  @IsDecimal(precision, scale)
  @IsPositive()
  height?: number | null;

  /** Unit of every length in the request; required when a length, width or height is given. */
  @ValidateIf(
    (request: CreateLabelRequest) =>
      (request.length_unit !== undefined && request.length_unit !== null) ||
      labelHasDimensions(request),
  )
  @IsEnum(LengthUnit)
  length_unit?: LengthUnit;

  /** Expected pickup time, ISO 8601 date-time. */
  @IsOptional()
  @IsIsoDateTime()
  expect_pickup_time?: string;

  /**
   * The carrier service (`GET /2025-07/cloud/service`) and its inco term; without one, DAP where
   * the service offers it, else its first. A code that is not a service, or a term it does not
   * offer, is a 400.
   */
  @IsObject()
  @ValidateNested()
  @NestedType(() => LabelServiceDto)
  service!: LabelServiceDto;

  /** Goods in the package; at least one. */
  @NestedList(
    () => LabelItemDto,
    ArrayMaxSize(INPUT_LIMITS.array_items),
    ArrayMinSize(LABEL_LIMITS.min_items),
  )
  items!: LabelItemDto[];

  /** What the package holds: a service that does not carry a content refuses the label (422). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => PackageAttributesDto)
  package_attributes?: PackageAttributesDto;

  /** Where the order came from: the marketplace's order number and the sales channel. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => LabelMetadataDto)
  metadata?: LabelMetadataDto;
}
