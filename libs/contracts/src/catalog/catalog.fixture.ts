/** Valid plain request bodies for the catalog specs (fresh objects on every call). */

export function validVariant() {
  return {
    sku: 'TSHIRT-RED-M',
    title: 'T-shirt red M',
    retail_price: 19.99,
    compare_at_price: 24.99,
    weight: 0.25,
    weight_unit: 'kg',
    requires_shipping: true,
    unit: 'pcs',
    options: { Color: 'Red', Size: 'M' },
  };
}

export function validImage() {
  return { url: 'https://cdn.example.com/tshirt-red.png', title: 'Front' };
}

export function validProduct() {
  return {
    title: 'T-shirt',
    body_html: '<p>Cotton T-shirt</p>',
    vendor: 'Acme',
    tags: ['cotton', 'summer'],
    currency: 'USD',
    source: 'shopify',
    options: { Color: ['Red', 'Blue'], Size: ['M'] },
    category: 'Apparel',
    images: [validImage()],
    variants: [
      validVariant(),
      { ...validVariant(), sku: 'TSHIRT-BLUE-M', options: { Color: 'Blue', Size: 'M' } },
    ],
  };
}

/** Only the required fields. */
export function minimalProduct() {
  return { title: 'Mug', currency: 'EUR' };
}

/** Only the required fields of a variant. */
export function minimalVariant() {
  return { sku: 'MUG-1', title: 'Mug', retail_price: 5, weight_unit: 'g', unit: 'pcs' };
}
