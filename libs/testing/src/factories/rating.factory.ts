/**
 * Valid cost-calculation bodies on the sample rate cards (libs/rating/rate-cards); override what
 * a test is about.
 */

/** Newark to Chicago, 2 lb in a 16 × 12 × 10 in box (docs/pricing.md's first worked example). */
export function aCalculateOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dest_address: { country_code: 'US', city: 'Chicago', zip_code: '60601' },
    origin_addresses: [{ warehouse_code: 'WH-NJ-01', country_code: 'US', city: 'Newark' }],
    weight: 2,
    weight_unit: 'lb',
    alcohol: 'No',
    battery: 'No',
    liquid: 'Not Applicable',
    dimension: { length: 16, width: 12, height: 10, uom: 'in' },
    ...overrides,
  };
}

/** DHL Express from Shenzhen to Austin, 1.25 kg in 30 × 20 × 10.5 cm, DDP. */
export function aCalculateFreight(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    origin_country_code: 'CN',
    origin_city: 'Shenzhen',
    origin_zip_code: '518000',
    dest_country_code: 'US',
    dest_city: 'Austin',
    dest_zip_code: '73301',
    dimension: { length: 30, width: 20, height: 10.5, uom: 'cm' },
    weight: 1.25,
    weight_unit: 'kg',
    service_code: 'DHL-EXPRESS',
    inco_term: 'DDP',
    ...overrides,
  };
}
