import { IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_COUNT } from '../common/formats';
import { INBOUND_LIMITS } from './inbound.limits';

/** A line of an inbound order request (`items[]`). */
export class InboundItemRequest {
  /** Expected number of units, at least 1. */
  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  quantity!: number;

  /** The product variant id (a variant's sku code is also accepted). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_LIMITS.item.sku_number)
  sku_number!: string;
}
