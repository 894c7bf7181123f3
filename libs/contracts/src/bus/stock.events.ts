import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsEnum,
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
import { IsId, MAX_COUNT } from '../common/formats';
import { ORDER_LIMITS } from '../order/order.limits';
import { InventoryView } from '../catalog/inventory.dto';
import { event } from './definition';

/*
 * The stock saga's events (ARCHITECTURE.md, "Stock"): order-service asks catalog-service to
 * reserve an order's lines; catalog answers reserved or failed. Every request and answer carries
 * the reservation `attempt`, so an answer to an older attempt changes nothing.
 */

/** A line as order-service names it: a variant id or a variant's sku code, and a quantity. */
export class StockLine {
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.sku_item.sku_number)
  sku_number!: string;

  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  quantity!: number;
}

/** A line resolved to its variant by catalog-service. */
export class ResolvedStockLine extends StockLine {
  @IsId()
  variant_id!: number;
}

/** What to reserve for an order: `order.created.v1` (attempt 1), `order.reservation_requested.v1`. */
export class ReservationRequestEvent {
  @IsId()
  order_id!: number;

  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  attempt!: number;

  /** The warehouse the order ships from; null lets catalog pick one that has every line. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.service.warehouse_code)
  warehouse_code!: string | null;

  @NestedList(() => StockLine, ArrayMaxSize(INPUT_LIMITS.array_items), ArrayNotEmpty())
  lines!: StockLine[];
}

/** `stock.reserved.v1`: every line is reserved at `warehouse_code`. */
export class StockReservedEvent {
  @IsId()
  order_id!: number;

  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  attempt!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.service.warehouse_code)
  warehouse_code!: string;

  @NestedList(() => ResolvedStockLine, ArrayMaxSize(INPUT_LIMITS.array_items))
  lines!: ResolvedStockLine[];
}

export enum ReservationFailure {
  /** A sku_number names no variant of the merchant. */
  UnknownSku = 'unknown_sku',
  /** The warehouse lacks available units of some line. */
  InsufficientStock = 'insufficient_stock',
  /** No warehouse was given and none has every line available. */
  NoWarehouse = 'no_warehouse',
}

/** `stock.reservation_failed.v1`: nothing was reserved; the order goes OnHold with `message`. */
export class StockReservationFailedEvent {
  @IsId()
  order_id!: number;

  @IsInt()
  @Min(1)
  @Max(MAX_COUNT)
  attempt!: number;

  @IsEnum(ReservationFailure)
  reason!: ReservationFailure;

  /** Human-readable, naming the SKUs concerned; becomes the order's hold_reason. */
  @IsString()
  @MaxLength(ORDER_LIMITS.hold_reason)
  message!: string;

  /** The sku_numbers concerned. */
  @IsArray()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  @IsString({ each: true })
  @MaxLength(ORDER_LIMITS.sku_item.sku_number, { each: true })
  sku_numbers!: string[];
}

/**
 * `stock.level_changed.v1`: on-hand or reserved units of some variants changed at a warehouse
 * (a receipt, a reservation, its release or deduction); it carries their inventory rows as
 * `GET /2025-07/cloud/inventory` answers them after the change, for webhooks.
 */
export class StockLevelChangedEvent {
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.service.warehouse_code)
  warehouse_code!: string;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(INPUT_LIMITS.array_items)
  levels!: InventoryView[];
}

/** catalog-service's stock events (the reservation saga, and stock levels for webhooks). */
export const StockEvents = {
  Reserved: event('stock.reserved.v1', StockReservedEvent),
  ReservationFailed: event('stock.reservation_failed.v1', StockReservationFailedEvent),
  LevelChanged: event('stock.level_changed.v1', StockLevelChangedEvent),
};
