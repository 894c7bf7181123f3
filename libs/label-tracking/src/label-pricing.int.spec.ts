import { CreateLabelRequest } from '@consign/contracts';
import { declaredValue, freightRequestOf, labelRefusal, pricingWeight } from './label-pricing';
import { TEST_SERVICES, aLabelRequest } from './testing/label-tracking.harness';
import { valueOf } from '@consign/testing/fixtures';

function label(changes: Record<string, unknown> = {}): CreateLabelRequest {
  return valueOf(CreateLabelRequest, { ...aLabelRequest(), ...changes });
}
const item = (weight: number, quantity = 1) => ({
  product_name: 'Mug',
  quantity,
  weight,
  unit_price: 9.5,
});
const [dhl, usps] = TEST_SERVICES;

describe('labelRefusal', () => {
  it('accepts a known service, its inco term and contents it carries', () => {
    expect(labelRefusal(label(), TEST_SERVICES)).toBeUndefined();
    expect(
      labelRefusal(
        label({ package_attributes: { contains_battery: true, contains_liquid: false } }),
        TEST_SERVICES,
      ),
    ).toBeUndefined();
  });

  it('refuses an unknown service, naming the field and the known ones', () => {
    expect(labelRefusal(label({ service: { service_code: 'NOPE' } }), TEST_SERVICES)).toEqual({
      kind: 'invalid_service',
      message:
        'Validation failed: service.service_code NOPE is not a carrier service (GET /2025-07/cloud/service lists them: DHL-EXPRESS, USPS-INTL, UPS-STANDARD)',
    });
  });

  it('refuses an inco term the service does not offer', () => {
    expect(
      labelRefusal(
        label({ service: { service_code: 'USPS-INTL', inco_term: 'DDP' } }),
        TEST_SERVICES,
      ),
    ).toEqual({
      kind: 'invalid_service',
      message:
        'Validation failed: service.inco_term DDP is not offered by USPS-INTL, which offers DAP',
    });
  });

  it('refuses restricted contents, naming each package attribute', () => {
    expect(
      labelRefusal(
        label({
          service: { service_code: 'USPS-INTL' },
          package_attributes: {
            contains_battery: true,
            contains_liquid: true,
            contains_alcohol: false,
          },
        }),
        TEST_SERVICES,
      ),
    ).toEqual({
      kind: 'restricted_contents',
      message:
        'package_attributes.contains_battery: USPS-INTL does not carry battery; package_attributes.contains_liquid: USPS-INTL does not carry liquid',
    });
    expect(
      labelRefusal(label({ package_attributes: { contains_dangerous_goods: true } }), TEST_SERVICES)
        ?.message,
    ).toBe(
      'package_attributes.contains_dangerous_goods: DHL-EXPRESS does not carry dangerous goods',
    );
  });

  it('refuses prohibited items whatever the service', () => {
    expect(
      labelRefusal(
        label({ package_attributes: { contains_prohibited_items: true } }),
        TEST_SERVICES,
      ),
    ).toEqual({
      kind: 'restricted_contents',
      message:
        'package_attributes.contains_prohibited_items: no carrier service carries prohibited items',
    });
  });
});

describe('pricingWeight', () => {
  it.each<[string, Record<string, unknown>, { weight: number; unit: string }]>([
    [
      'items × quantities, kg',
      { weight_unit: 'kg', items: [item(0.8, 2), item(0.25, 3)] },
      { weight: 2.35, unit: 'kg' },
    ],
    [
      'the package weight when declared',
      { weight_unit: 'kg', items: [item(5)], package_attributes: { weight: 1.2 } },
      { weight: 1.2, unit: 'kg' },
    ],
    [
      'grams as kilograms, rounded up',
      { weight_unit: 'g', items: [item(1234.5)] },
      { weight: 1.24, unit: 'kg' },
    ],
    [
      'ounces as pounds, rounded up',
      { weight_unit: 'oz', items: [item(10, 2)] },
      { weight: 1.25, unit: 'lb' },
    ],
    [
      'pounds rounded up to hundredths',
      { weight_unit: 'lb', items: [item(0.001)] },
      { weight: 0.01, unit: 'lb' },
    ],
    [
      'no float artefacts',
      { weight_unit: 'kg', items: [item(0.1, 3)] },
      { weight: 0.3, unit: 'kg' },
    ],
  ])('%s', (_case, changes, expected) => {
    expect(pricingWeight(label(changes))).toEqual(expected);
  });
});

describe('freightRequestOf', () => {
  it('prices the parcel between the two addresses with the label’s service and inco term', () => {
    const request = label({
      service: { service_code: 'DHL-EXPRESS', inco_term: 'DDP' },
      length: 30.001,
      width: 20,
      height: 10.5,
      length_unit: 'cm',
      shipping_address: { ...(aLabelRequest().shipping_address as object), zip_code: 'SW1Y 4JH' },
    });
    expect(freightRequestOf(request, dhl)).toEqual({
      dest_country_code: 'GB',
      dest_city: 'London',
      dest_zip_code: 'SW1Y 4JH',
      origin_country_code: 'GB',
      origin_city: 'London',
      weight: 0.8,
      weight_unit: 'kg',
      service_code: 'DHL-EXPRESS',
      inco_term: 'DDP',
      dimension: { length: 30.01, width: 20, height: 10.5, uom: 'cm' },
      declared_value: declaredValue(request),
      currency: request.currency,
    });
  });

  it('declares the items’ customs values in the label’s currency (unit price when none)', () => {
    const request = label({
      currency: 'EUR',
      items: [
        { ...item(1.2, 2), unit_price: 450, declared_unit_value: 400 },
        { ...item(0.1, 3), unit_price: 0.35 },
      ],
    });
    // 2 × 400.00 + 3 × 0.35 (no declared value: the price) = 801.05, exactly.
    expect(declaredValue(request)).toBe(801.05);
    expect(freightRequestOf(request, dhl)).toMatchObject({
      declared_value: 801.05,
      currency: 'EUR',
    });
  });

  it('defaults the inco term to DAP, or the service’s only one', () => {
    expect(
      freightRequestOf(label({ service: { service_code: 'DHL-EXPRESS' } }), dhl).inco_term,
    ).toBe('DAP');
    expect(
      freightRequestOf(label({ service: { service_code: 'USPS-INTL' } }), usps).inco_term,
    ).toBe('DAP');
  });

  it('leaves out what rating-service could not take (a 16-character zip, a partial size)', () => {
    const request = label({
      length: 30,
      length_unit: 'cm',
      shipping_address: {
        ...(aLabelRequest().shipping_address as object),
        zip_code: '1234567890123456',
      },
    });
    const freight = freightRequestOf(request, dhl);
    expect(freight).not.toHaveProperty('dest_zip_code');
    expect(freight).not.toHaveProperty('dimension');
  });

  it('takes a zip code given as null as absent (it once answered 500)', () => {
    const request = label({
      shipping_address: { ...(aLabelRequest().shipping_address as object), zip_code: null },
      shipper_address: { ...(aLabelRequest().shipper_address as object), zip_code: null },
    });
    const freight = freightRequestOf(request, dhl);
    expect(freight).not.toHaveProperty('dest_zip_code');
    expect(freight).not.toHaveProperty('origin_zip_code');
    expect(freight).toMatchObject({ dest_city: expect.any(String) });
  });
});
