/** Product limits from the spec (endpoint 12 and the Product resource table). */
export const PRODUCT_LIMITS = {
  title: 256,
  body_html: 65535,
  vendor: 64,
  /** Total length of the tags joined with ",". */
  tags: 2046,
  currency: 3,
  source: 32,
  /** Length of the JSON text of `options`. */
  options: 65535,
  category: 256,
} as const;

/** Product image limits. */
export const PRODUCT_IMAGE_LIMITS = {
  url: 255,
  title: 127,
} as const;

/** Variant limits (endpoint 12 `variants` and the Variant resource). */
export const VARIANT_LIMITS = {
  sku: 128,
  title: 256,
  weight_unit: 8,
  unit: 8,
  /** Length of the JSON text of `options`. */
  options: 65535,
} as const;

/** Separator used to join product tags when their total length is measured (and stored). */
export const TAG_SEPARATOR = ',';
