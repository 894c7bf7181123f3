import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
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
  @ArrayNotEmpty()
  @ValidateNested({ each: true })
  @Type(() => ResolvedStockLine)
  lines!: ResolvedStockLine[];
}
