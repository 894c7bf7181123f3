/** Valid plain request bodies for the inbound specs (fresh objects on every call). */

export function validShipper() {
  return {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    phone: '+1 555 0199',
    address1: '2 Harbour Road',
    address2: 'Unit 9',
    zip_code: '94107',
    district: 'SoMa',
    city: 'San Francisco',
    province: 'CA',
    country: 'United States',
    company_name: 'Hopper Supplies',
  };
}

export function validInbound() {
  return {
    carrier: 'UPS',
    tracking_no: '1Z999AA10123456784',
    expected_inbound_date: '2025-08-15',
    items: [
      { quantity: 100, sku_number: '1001' },
      { quantity: 5, sku_number: '1002' },
    ],
    package_number: 3,
    reference: 'ASN-2025-001',
    remarks: 'Fragile',
    shipper: validShipper(),
    warehouse_code: 'WH-NJ-01',
  };
}

/** Only the required fields. */
export function minimalInbound() {
  return {
    items: [{ quantity: 1, sku_number: '1001' }],
    package_number: 0,
    warehouse_code: 'WH-NJ-01',
  };
}
