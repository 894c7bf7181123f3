/** Request limits of the cost calculations (endpoints 3 and 4). */
export const RATING_LIMITS = {
  city: 60,
  zip_code: 15,
  warehouse_code: 32,
  service_code: 32,
  weight_unit: 8,
  inco_term: 8,
  currency: 3,
  uom: 8,
} as const;

/** Field limits of an order-calculation cost result (for storage and adapters). */
export const ORDER_COST_RESULT_LIMITS = {
  message: 255,
  error_code: 255,
  inco_term: 8,
  service_name: 64,
  service_code: 64,
  service_zone: 8,
  platform: 32,
  currency: 3,
  tax_currency: 3,
  charge_weight_unit: 8,
  original_weight_unit: 3,
  timeliness: 16,
  carrier: 32,
  warehouse_code: 32,
} as const;

/** Field limits of a freight-calculation cost result. */
export const FREIGHT_COST_RESULT_LIMITS = {
  carrier_code: 32,
  inco_term: 8,
  currency: 3,
  message: 255,
} as const;
