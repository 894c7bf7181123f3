/** Label limits from the spec (endpoint 1). Address limits are LABEL_ADDRESS_LIMITS. */
export const LABEL_LIMITS = {
  reference: 64,
  currency: 3,
  /** "A label request needs at least one item." */
  min_items: 1,
  service: {
    service_code: 32,
    inco_term: 16,
  },
  item: {
    product_name: 100,
    sku_code: 128,
    brand: 64,
    unit: 16,
    hs_code: 32,
    customs_description: 512,
  },
  /** `metadata`: the spec gives no lengths; house limits (`platform` as the cost result's). */
  metadata: {
    platform_order_no: 64,
    platform: 32,
  },
} as const;

/** Label weights and dimensions: Number(12,3) (grams of a kilogram, millimetres of a metre). */
export const LABEL_MEASURE = { precision: 12, scale: 3 } as const;

/**
 * Limits of carrier checkpoint events and of what tracking returns. The spec's order-tracking
 * object gives 255 for `tracking_courier`, `tracking_number`, `details` and `description`; a
 * carrier code is a service's `carrier` (max 32 in the freight cost result's `carrier_code`).
 */
export const TRACKING_LIMITS = {
  carrier_code: 32,
  tracking_number: 255,
  event_code: 64,
  description: 255,
  location: 255,
  /** Events one webhook request (or one bus command) may carry. */
  events_per_request: 1000,
  /**
   * How far ahead of the platform's clock an event may be dated, in hours: a carrier's clock may
   * drift, but an event of the year 9999 is a broken feed, and would stay the parcel's latest.
   */
  event_time_ahead_hours: 168,
} as const;

/** A label with no new event for this long becomes `expired` (ARCHITECTURE.md, label tracking). */
export const LABEL_EXPIRY_DAYS = 30;
