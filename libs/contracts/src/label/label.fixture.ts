/** Valid plain request bodies for the label specs (fresh objects on every call). */

export function validLabelAddress() {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: 'Analytical Engines Ltd',
    phone: '+44 20 7946 0000',
    email: 'ada@example.com',
    address1: '12 St James Square',
    address2: 'Floor 2',
    district: 'Westminster',
    city: 'London',
    province: 'Greater London',
    province_code: 'LND',
    zip_code: 'SW1Y 4JH',
    country: 'United Kingdom',
    country_code: 'GB',
  };
}

/** Only the required fields of a label address. */
export function minimalLabelAddress() {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+44 20 7946 0000',
    address1: '12 St James Square',
    city: 'London',
    country: 'United Kingdom',
    country_code: 'GB',
  };
}

export function validLabelItem() {
  return {
    product_name: 'T-shirt',
    quantity: 2,
    weight: 0.25,
    length: 30,
    width: 20,
    height: 2.5,
    unit_price: 19.99,
    declared_unit_value: 15,
    tax: 3.2,
    sku_code: 'TSHIRT-RED-M',
    brand: 'Acme',
    unit: 'pcs',
    hs_code: '6109.10',
    customs_description: 'Cotton T-shirt',
    origin_country_code: 'PT',
  };
}

export function validLabel() {
  return {
    shipping_address: validLabelAddress(),
    shipper_address: { ...validLabelAddress(), first_name: 'Charles', last_name: 'Babbage' },
    reference: 'ORDER-1001',
    currency: 'GBP',
    weight_unit: 'kg',
    length: 35,
    width: 25,
    height: 10,
    length_unit: 'cm',
    expect_pickup_time: '2026-05-20T09:30:00Z',
    service: { service_code: 'DHL-EXPRESS', inco_term: 'DDP' },
    items: [validLabelItem(), { ...validLabelItem(), product_name: 'Socks', sku_code: 'SOCKS-1' }],
    package_attributes: {
      contains_alcohol: false,
      contains_liquid: false,
      contains_battery: true,
      contains_dangerous_goods: false,
      contains_prohibited_items: false,
      weight: 0.6,
    },
    metadata: { platform_order_no: '#1001', platform: 'shopify' },
  };
}

/** Only the required fields. */
export function minimalLabel() {
  return {
    shipping_address: minimalLabelAddress(),
    shipper_address: minimalLabelAddress(),
    reference: 'ORDER-1002',
    currency: 'USD',
    weight_unit: 'lb',
    service: { service_code: 'USPS-GROUND' },
    items: [{ product_name: 'Mug', quantity: 1, weight: 0.8, unit_price: 9.5 }],
  };
}
