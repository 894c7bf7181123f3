/** Order limits from the spec (Order resource, endpoint 5, order tracking). */
export const ORDER_LIMITS = {
  reference: 47,
  currency: 3,
  status: 31,
  service: {
    service_code: 63,
    inco_term: 8,
    warehouse_code: 32,
  },
  sku_item: {
    sku_number: 128,
    /** `tax` is a fraction of the price (5% is 0.05), so at most 1. */
    max_tax: 1,
  },
  /** Why an order is on hold (not in the spec: Consign's `hold_reason`). */
  hold_reason: 255,
  shipment: {
    carrier: 32,
    tracking_number: 255,
  },
  tracking: {
    tracking_courier: 255,
    tracking_number: 255,
    details: 255,
    description: 255,
    status: 32,
  },
} as const;

/** Defaults of an order created without these fields. */
export const ORDER_DEFAULTS = {
  currency: 'USD',
  totals_include_tax: false,
} as const;
