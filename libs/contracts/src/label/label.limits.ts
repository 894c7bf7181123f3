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
} as const;

/** Label weights and dimensions: Number(12,3) (grams of a kilogram, millimetres of a metre). */
export const LABEL_MEASURE = { precision: 12, scale: 3 } as const;
