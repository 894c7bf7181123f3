import { ShipperDto } from '../common/address.dto';
import { InboundStatus } from './inbound-status';

/** A line of an inbound order in a response. */
export class InboundItemView {
  expect_quantity!: number;
  actual_quantity!: number;
  still_need_quantity!: number;
  /** The product variant id. */
  sku_number!: string;
}

/** An inbound order (endpoints 10 and 11). */
export class InboundOrderView {
  id!: number;
  carrier!: string | null;
  /** May be absent from list elements. */
  tracking_no?: string | null;
  /** Sent as `yyyy-MM-dd`. */
  expected_inbound_date!: string | null;
  /** ISO 8601 UTC; null until received. */
  actual_inbound_at!: string | null;
  items!: InboundItemView[];
  /** Number of packages; 0 means not yet known. */
  package_number!: number;
  reference!: string | null;
  remarks!: string | null;
  shipper!: ShipperDto | null;
  /**
   * Pending until the first receipt; Partial while units are still expected; Completed once every
   * one arrived or a receipt says `complete`. Cancelled by the merchant from Pending; Failure when
   * the warehouse rejects a Pending delivery (`rejection_reason`).
   */
  status!: InboundStatus;
  warehouse_code!: string;
  /** True when a received quantity differs from the expected one. */
  exceptional!: boolean;
  /** The difference between expected and actual quantities; null when none. */
  feedback!: string | null;
  print_times!: number;
  /** Why the warehouse rejected the delivery (status Failure); null otherwise. Not in the spec. */
  rejection_reason!: string | null;
}

/** A page of inbound orders (endpoint 10). */
export class InboundPageView {
  page!: number;
  size!: number;
  /** Total number of the merchant's inbound orders. */
  total!: number;
  list!: InboundOrderView[];
}
