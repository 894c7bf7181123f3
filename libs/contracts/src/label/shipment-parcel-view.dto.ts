/**
 * The parcel an order's shipment is tracked as (label-tracking-service's answer to a check before
 * the ship): the carrier and tracking number as tracked, and the parcel that already has them.
 */
export class ShipmentParcelView {
  /** The carrier code as tracked (upper-case: `PostNL` ships as `POSTNL`). */
  tracking_courier!: string;

  /** The tracking number as tracked (trimmed). */
  tracking_number!: string;

  /** The merchant's parcel with this number (a label, an earlier shipment); null for a new one. */
  parcel_id!: number | null;
}
