import { anOrderAddress } from '../fixtures/addresses';
/** A warehouse and a service of the repository's rate cards (libs/rating/rate-cards). */
export const TEST_WAREHOUSE_CODE = 'WH-DE-01';
export const TEST_SERVICE = { service_code: 'DPD-CLASSIC', inco_term: 'DAP' } as const;

/** A create-order body for these lines, shipped from a warehouse; every spec field set. */
export function anOrder(
  lines: { sku_number: string; quantity: number }[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    shipping_address: anOrderAddress(),
    billing_address: anOrderAddress({ first_name: 'Charles', last_name: 'Babbage' }),
    reference: `PO-${Date.now()}`,
    currency: 'EUR',
    totals_include_tax: true,
    shipping_cost: 4.95,
    service: { ...TEST_SERVICE, warehouse_code: TEST_WAREHOUSE_CODE },
    sku_items: lines.map((line) => ({ price: 24.9, discount: 1.5, tax: 0.21, ...line })),
    ...overrides,
  };
}

/** A create-inbound body announcing these lines at a warehouse. */
export function anInbound(
  items: { sku_number: string; quantity: number }[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    carrier: 'DHL',
    tracking_no: `JD0146000${Date.now()}`,
    expected_inbound_date: '2025-08-15',
    items,
    package_number: 2,
    reference: `ASN-${Date.now()}`,
    remarks: 'Two pallets',
    shipper: {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: '+1 555 0199',
      address1: '2 Harbour Road',
      zip_code: '94107',
      city: 'San Francisco',
      province: 'CA',
      country: 'United States',
      company_name: 'Hopper Supplies',
    },
    warehouse_code: TEST_WAREHOUSE_CODE,
    ...overrides,
  };
}
