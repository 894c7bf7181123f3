import { OrderAddressDto } from '../common/address.dto';
import { OrderStatus } from './order-status';

/** An order line in a response. */
export class SkuItemView {
  /** The product variant id. */
  sku_number!: string;
  quantity!: number;
  /** Number(12,2). */
  price!: number;
  /** Number(12,2). */
  discount!: number | null;
  /** Tax rate as a fraction (5% is 0.05); may be null. */
  tax!: number | null;
}

/** The service of an order in a response. */
export class OrderServiceView {
  service_code!: string | null;
  inco_term!: string | null;
  warehouse_code!: string | null;
}

/** An order (endpoints 6 and 7). */
export class OrderView {
  id!: number;
  shipping_address!: OrderAddressDto;
  billing_address!: OrderAddressDto;
  reference!: string | null;
  /** ISO 4217. */
  currency!: string;
  /** True when the totals include tax. */
  totals_include_tax!: boolean;
  /** ISO 8601 UTC. */
  issue_date!: string | null;
  /**
   * Draft while its stock is being reserved; then Approved, or OnHold with `hold_reason` (released:
   * Draft again). The warehouse's pick makes it Processing, its shipment Fulfilled, and the
   * carrier's delivery Completed. Cancelled by the merchant from Draft, OnHold or Approved, or by
   * the warehouse from Processing.
   */
  status!: OrderStatus;
  /**
   * Why the order is OnHold (unknown SKU, insufficient stock, held by the merchant); null in any
   * other state. Not in the spec: Consign's addition, so a merchant can act on a hold.
   */
  hold_reason!: string | null;
  /** Number(12,2). */
  shipping_cost!: number | null;
  sku_items!: SkuItemView[];
  /** ISO 8601 UTC. */
  created_time!: string;
  service!: OrderServiceView | null;
  /**
   * The order's public tracking page (no API key; no personal data), for the merchant's
   * customer. Added by the gateway to the order it answers for GET; not in the spec.
   */
  tracking_url?: string;
}

/** A page of orders (endpoint 6). */
export class OrderPageView {
  page!: number;
  size!: number;
  /** Total number of the merchant's orders. */
  total!: number;
  list!: OrderView[];
}
