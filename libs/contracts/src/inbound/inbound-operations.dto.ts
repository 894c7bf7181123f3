import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { NestedList } from '../common/nested-list';
import { INPUT_LIMITS } from '../common/input-limits';
import { MAX_COUNT } from '../common/formats';
import { INBOUND_LIMITS, INBOUND_OPERATION_LIMITS } from './inbound.limits';

/** A SKU counted in a receipt. */
export class ReceiptItemRequest {
  /** A `sku_number` of the inbound order's items. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_LIMITS.item.sku_number)
  sku_number!: string;

  /** Units received in this receipt (added to `actual_quantity`); 0 is allowed. */
  @IsInt()
  @Min(0)
  @Max(MAX_COUNT)
  quantity!: number;
}

/**
 * Body of POST /2025-07/cloud/inbound/{inbound_id}/receipt (operators; warehouse adapters send the
 * same as an event): what arrived at the warehouse.
 */
export class InboundReceiptRequest {
  /** What was counted, by item of the inbound order; lines naming the same item add up. */
  @NestedList(() => ReceiptItemRequest, ArrayMaxSize(INPUT_LIMITS.array_items), ArrayNotEmpty())
  items!: ReceiptItemRequest[];

  /**
   * True when nothing more will arrive: the inbound order is Completed even if short (the
   * shortfall is noted in `feedback`). Otherwise it is Completed once every expected quantity
   * arrived, Partial before.
   */
  @IsOptional()
  @IsBoolean()
  complete?: boolean;
}

/** Body of POST /2025-07/cloud/inbound/{inbound_id}/reject: the warehouse refuses the delivery. */
export class RejectInboundRequest {
  /** Why the warehouse refuses it: the inbound order's `rejection_reason`. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_OPERATION_LIMITS.rejection_reason)
  reason!: string;
}
