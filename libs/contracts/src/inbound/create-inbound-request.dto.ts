import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INPUT_LIMITS } from '../common/input-limits';
import { ShipperDto } from '../common/address.dto';
import { IsCalendarDate, MAX_COUNT } from '../common/formats';
import { INBOUND_LIMITS } from './inbound.limits';
import { InboundItemRequest } from './inbound-item-request.dto';

/** Body of POST /2025-07/cloud/inbound. */
export class CreateInboundRequest {
  /** Carrier bringing the goods to the warehouse. */
  @IsOptional()
  @IsString()
  @MaxLength(INBOUND_LIMITS.carrier)
  carrier?: string;

  /** Carrier tracking number. */
  @IsOptional()
  @IsString()
  @MaxLength(INBOUND_LIMITS.tracking_no)
  tracking_no?: string;

  /** Expected arrival at the warehouse, `yyyy-MM-dd`. */
  @IsOptional()
  @IsCalendarDate()
  expected_inbound_date?: string;

  /** Expected goods; at least one line. */
  @IsArray()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  @ArrayNotEmpty()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => InboundItemRequest)
  items!: InboundItemRequest[];

  /** Number of packages; 0 means not yet known. */
  @IsInt()
  @Min(0)
  @Max(MAX_COUNT)
  package_number!: number;

  /** Merchant's reference. */
  @IsOptional()
  @IsString()
  @MaxLength(INBOUND_LIMITS.reference)
  reference?: string;

  @IsOptional()
  @IsString()
  @MaxLength(INBOUND_LIMITS.remarks)
  remarks?: string;

  /** Sender of the goods. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ShipperDto)
  shipper?: ShipperDto;

  /** Code of the receiving warehouse. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_LIMITS.warehouse_code)
  warehouse_code!: string;
}
