/**
 * Inbound order limits from the spec (Inbound order resource, endpoint 9). The spec gives
 * `warehouse_code` no maximum on this endpoint; 32 is the warehouse code's length everywhere else
 * (order service, cost results), and `sku_number` is the order line's 128.
 */
export const INBOUND_LIMITS = {
  carrier: 32,
  /** Not given by the spec: the order shipment's tracking number length (house limit). */
  tracking_no: 255,
  /** Not given by the spec (house limit). */
  remarks: 2000,
  reference: 47,
  warehouse_code: 32,
  item: {
    sku_number: 128,
  },
} as const;

/** Limits of the warehouse operations on inbound orders (Consign's additions to the spec). */
export const INBOUND_OPERATION_LIMITS = {
  /** Why a warehouse rejected a delivery. */
  rejection_reason: 255,
} as const;
