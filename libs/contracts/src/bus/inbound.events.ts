import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INPUT_LIMITS } from '../common/input-limits';
import { INBOUND_LIMITS } from '../inbound/inbound.limits';
import { ResolvedStockLine } from './stock.events';

/**
 * `inbound.received.v1`: units that arrived at a warehouse with one receipt (only what this
 * receipt added, not the running totals); catalog puts them on hand.
 */
export class InboundReceivedEvent {
  @IsInt()
  @Min(1)
  inbound_id!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_LIMITS.warehouse_code)
  warehouse_code!: string;

  @IsArray()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  @ArrayNotEmpty()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ResolvedStockLine)
  lines!: ResolvedStockLine[];
}
