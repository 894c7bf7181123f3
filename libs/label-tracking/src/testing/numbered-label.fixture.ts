import { CustomsForm, LabelAddressDto, LabelView, WeightUnit } from '@consign/contracts';
import type { AllocatedLabel } from '../documents/label-layout';

const LONDON: LabelAddressDto = {
  first_name: 'Zoë',
  last_name: 'Łukasiewicz',
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

const NEWARK: LabelAddressDto = {
  first_name: 'Grace',
  last_name: 'Hopper',
  company_name: 'Consign Fulfilment',
  phone: '+1 973 555 0100',
  address1: '1 Corbin Street',
  city: 'Newark',
  province: 'New Jersey',
  province_code: 'NJ',
  zip_code: '07114',
  country: 'United States',
  country_code: 'US',
};

/**
 * A label record the carrier has numbered, as GET /2026-05/cloud/label/{id} answers it: Newark
 * to London, two wool jackets (the recipient's name in two alphabets' letters).
 */
export function aNumberedLabel(
  courier = 'UPS',
  trackingNumber = '1ZC0N51G010000426',
  changes: Partial<LabelView> = {},
): AllocatedLabel {
  return {
    id: 42,
    status: 'information_received' as LabelView['status'],
    reference: 'ORDER-1001',
    service: { service_code: `${courier}-EXPRESS`, inco_term: 'DDP' },
    carrier: courier,
    price: null,
    shipping_address: { ...LONDON },
    shipper_address: { ...NEWARK },
    currency: 'GBP',
    weight_unit: WeightUnit.Kg,
    length: 35,
    width: 25,
    height: 10,
    length_unit: null,
    expect_pickup_time: null,
    items: [
      {
        product_name: 'Wool jacket',
        quantity: 2,
        weight: 1.2,
        unit_price: 400,
        declared_unit_value: 400,
        hs_code: '6201.30',
        customs_description: 'Men’s wool jacket',
        origin_country_code: 'PT',
      },
    ],
    package_attributes: null,
    metadata: { platform_order_no: '#1001', platform: 'shopify' },
    tracking_courier: courier,
    tracking_number: trackingNumber,
    delivered_time: null,
    created_time: '2026-05-20T09:30:00.000Z',
    customs_form: CustomsForm.CN23,
    documents: [],
    void: null,
    ...changes,
  } as AllocatedLabel;
}
