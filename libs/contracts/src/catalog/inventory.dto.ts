import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../common/page.dto';
import { ORDER_LIMITS } from '../order/order.limits';
import { VARIANT_LIMITS } from './catalog.limits';

/** Query of GET /2025-07/cloud/inventory: a page of stock levels, optionally filtered. */
export class InventoryQuery extends PageQuery {
  /** A variant id or a variant's sku code. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(VARIANT_LIMITS.sku)
  sku?: string;

  /** A warehouse's code (`GET /2025-07/cloud/warehouse` lists them): its stock only. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.service.warehouse_code)
  warehouse_code?: string;
}

/** Stock of one variant at one warehouse. */
export class InventoryView {
  /** The variant id, as orders and inbound orders name it. */
  sku_number!: string;
  /** The variant's sku code. */
  sku!: string;
  warehouse_code!: string;
  /** Units in the warehouse. */
  on_hand!: number;
  /** Units promised to approved orders not yet shipped. */
  reserved!: number;
  /** on_hand - reserved: what a new order can still get. */
  available!: number;
}

export class InventoryPageView {
  page!: number;
  size!: number;
  /** Stock levels matching the filter. */
  total!: number;
  list!: InventoryView[];
}
