import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_COUNT } from '../common/formats';
import { ORDER_LIMITS } from './order.limits';

/** Body of POST /2025-07/cloud/order/{order_id}/hold (optional). */
export class HoldOrderRequest {
  /** Why the merchant holds the order; shown as the order's `hold_reason`. */
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.hold_reason)
  reason?: string;
}

/** Body of POST /2025-07/cloud/order/{order_id}/ship (operators; warehouse adapters send the same). */
export class ShipOrderRequest {
  /** Carrier code that took the parcels. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.shipment.carrier)
  carrier!: string;

  /** The carrier's tracking number. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.shipment.tracking_number)
  tracking_number!: string;

  /** Number of packages shipped, at least 1. */
  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  packages!: number;
}
