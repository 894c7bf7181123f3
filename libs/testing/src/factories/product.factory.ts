import { randomBytes } from 'node:crypto';

/** A fresh, valid create-product body (every writable field set); override what a test is about. */
export function aProduct(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const suffix = randomBytes(4).toString('hex');
  return {
    title: `Organic cotton tee ${suffix}`,
    body_html: '<p>Soft, heavy organic cotton.</p>',
    vendor: 'Northwind',
    currency: 'EUR',
    category: 'Apparel > Tops',
    source: 'api',
    tags: ['cotton', 'summer'],
    options: { Size: ['S', 'M'], Color: ['Ecru'] },
    images: [{ url: `https://cdn.example.com/${suffix}.jpg`, title: 'Front' }],
    variants: [
      aVariant({
        sku: `TEE-${suffix}-S`,
        title: 'S / Ecru',
        options: { Size: 'S', Color: 'Ecru' },
      }),
      aVariant({
        sku: `TEE-${suffix}-M`,
        title: 'M / Ecru',
        options: { Size: 'M', Color: 'Ecru' },
      }),
    ],
    ...overrides,
  };
}

export function aVariant(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sku: `SKU-${randomBytes(5).toString('hex')}`,
    title: 'Default',
    retail_price: 24.9,
    compare_at_price: 29.9,
    weight: 0.25,
    weight_unit: 'kg',
    unit: 'pcs',
    ...overrides,
  };
}
