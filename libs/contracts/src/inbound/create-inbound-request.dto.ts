import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
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
import { NestedType } from '../common/contract-metadata';
import { NestedList } from '../common/nested-list';
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
  @NestedList(() => InboundItemRequest, ArrayMaxSize(INPUT_LIMITS.array_items), ArrayNotEmpty())
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

  /** Notes for the warehouse receiving the delivery. */
  @IsOptional()
  @IsString()
  @MaxLength(INBOUND_LIMITS.remarks)
  remarks?: string;

  /** Sender of the goods. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => ShipperDto)
  shipper?: ShipperDto;

  /** Code of the receiving warehouse. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_LIMITS.warehouse_code)
  warehouse_code!: string;
}
