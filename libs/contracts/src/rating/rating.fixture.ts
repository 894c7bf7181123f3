/** Valid plain request bodies for the rating specs (fresh objects on every call). */

export function validDimension() {
  return { length: 30, width: 20, height: 10.5, uom: 'cm' };
}

export function validCalculateOrder() {
  return {
    dest_address: { country_code: 'US', city: 'Austin', zip_code: '73301' },
    origin_addresses: [
      { warehouse_code: 'WH-NJ-01', country_code: 'US', city: 'Newark', zip_code: '07102' },
      { warehouse_code: 'WH-CA-01', country_code: 'US', city: 'Ontario', zip_code: '91761' },
    ],
    weight: 1.25,
    weight_unit: 'kg',
    alcohol: 'No',
    battery: 'Yes',
    liquid: 'Not Applicable',
    declared_value: 59.9,
    currency: 'USD',
    dimension: validDimension(),
  };
}

export function minimalCalculateOrder() {
  return {
    dest_address: { country_code: 'DE' },
    origin_addresses: [{ warehouse_code: 'WH-NJ-01', country_code: 'US' }],
    weight: 2,
    weight_unit: 'lb',
  };
}

export function validCalculateFreight() {
  return {
    dest_country_code: 'US',
    dest_city: 'Austin',
    dest_zip_code: '73301',
    origin_country_code: 'CN',
    origin_city: 'Shenzhen',
    origin_zip_code: '518000',
    dimension: validDimension(),
    weight: 1.25,
    weight_unit: 'kg',
    service_code: 'DHL-EXPRESS',
    inco_term: 'DDP',
  };
}

export function minimalCalculateFreight() {
  return {
    dest_country_code: 'US',
    origin_country_code: 'CN',
    weight: 3,
    weight_unit: 'lb',
    service_code: 'UPS-GROUND',
  };
}
