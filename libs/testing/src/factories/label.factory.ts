import { randomBytes } from 'node:crypto';
import { aLabelAddress } from '../fixtures/addresses';

/** A fresh, valid create-label body (every field of the spec set); override what a test is about. */
export function aLabel(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const suffix = randomBytes(4).toString('hex');
  return {
    shipping_address: aLabelAddress(),
    shipper_address: aLabelAddress({
      first_name: 'Charles',
      last_name: 'Babbage',
      city: 'Berlin',
      country: 'Germany',
      country_code: 'DE',
      zip_code: '10117',
    }),
    reference: `ORDER-${suffix}`,
    currency: 'EUR',
    weight_unit: 'kg',
    length: 35,
    width: 25,
    height: 10.5,
    length_unit: 'cm',
    expect_pickup_time: '2026-05-20T09:30:00+02:00',
    service: { service_code: 'DHL-EXPRESS', inco_term: 'DDP' },
    items: [
      {
        product_name: 'Organic cotton tee',
        quantity: 2,
        weight: 0.25,
        length: 30,
        width: 20,
        height: 2.5,
        unit_price: 24.9,
        declared_unit_value: 15,
        tax: 4.73,
        sku_code: `TEE-${suffix}`,
        brand: 'Northwind',
        unit: 'pcs',
        hs_code: '6109.10',
        customs_description: 'Cotton T-shirt',
        origin_country_code: 'PT',
      },
    ],
    package_attributes: {
      contains_alcohol: false,
      contains_liquid: false,
      contains_battery: false,
      contains_dangerous_goods: false,
      contains_prohibited_items: false,
      weight: 0.6,
    },
    metadata: { platform_order_no: `#${suffix}`, platform: 'shopify' },
    ...overrides,
  };
}
