/** Valid plain request bodies for the order specs (fresh objects on every call). */

export function validOrderAddress() {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '+1 555 0100',
    address1: '1 Main Street',
    address2: 'Suite 5',
    zip_code: '10001',
    district: 'Manhattan',
    city: 'New York',
    province: 'NY',
    country: 'United States',
    country_code: 'US',
  };
}

export function validSkuItem() {
  return { sku_number: '1001', quantity: 2, price: 19.99, discount: 1.5, tax: 0.05 };
}

export function validOrder() {
  return {
    shipping_address: validOrderAddress(),
    billing_address: { ...validOrderAddress(), first_name: 'Charles', last_name: 'Babbage' },
    reference: 'PO-1001',
    currency: 'EUR',
    totals_include_tax: true,
    shipping_cost: 4.95,
    service: { service_code: 'UPS-GROUND', inco_term: 'DAP', warehouse_code: 'WH-NJ-01' },
    sku_items: [validSkuItem(), { ...validSkuItem(), sku_number: '1002', quantity: 1 }],
  };
}

/** Only the required fields. */
export function minimalOrder() {
  return {
    shipping_address: validOrderAddress(),
    sku_items: [{ sku_number: '1001', quantity: 1, price: 10 }],
  };
}
