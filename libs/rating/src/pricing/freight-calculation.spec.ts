import { RatingErrorCode } from '@consign/contracts';
import { freightRequest, sampleReferenceData } from './calculation.fixture';
import { calculateFreight } from './freight-calculation';

/* Worked examples on the sample rate cards; figures computed by hand as in order-calculation.spec. */

const data = sampleReferenceData();
const calculate = (overrides: Record<string, unknown> = {}) =>
  calculateFreight(data, freightRequest(overrides));

describe('calculateFreight', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      // DHL Express, Shenzhen to Austin, 1.25 kg in 30 × 20 × 10.5 cm: 6300 cm³ / 5000 =
      // 1.26 kg volumetric beats 1.25 kg; rounded up to 0.5 kg: 1.5 kg. Zone Z1, 2 kg break:
      // 61.50; fuel 27.5 % = 16.9125 → 16.91; not remote; total 78.41. DDP without a declared
      // value: no duty, no VAT; DDP handling USD 15. Amount 78.41 + 15.00 = 93.41.
      'DDP: the DDP handling fee, no duty or VAT without a declared value',
      { dimension: { length: 30, width: 20, height: 10.5, uom: 'cm' } },
      {
        carrier_code: 'DHL',
        inco_term: 'DDP',
        shipping: 61.5,
        fuel_surcharge: 16.91,
        remote_area_surcharge: 0,
        duty: 0,
        vat: 0,
        ddp_handling: 15,
        amount: 93.41,
        currency: 'USD',
        message: 'success',
      },
    ],
    [
      // Same under DAP, without dimensions: 1.25 → 1.5 kg, same figures, nothing on import.
      'DAP: carriage only',
      { inco_term: 'DAP' },
      { inco_term: 'DAP', ddp_handling: 0, amount: 78.41 },
    ],
    [
      // UPS Ground (DAP only, so no inco_term needed), New York to Anchorage 99501 (US-NC).
      // The unit as weight_uom: 10 lb, 10 lb break 66.80; fuel 19.5 % = 13.026 → 13.03;
      // Anchorage is no remote area of UPS; amount 79.83.
      'weight_uom, a single-term service without inco_term',
      {
        origin_country_code: 'US',
        dest_zip_code: '99501',
        dest_city: 'Anchorage',
        service_code: 'UPS-GROUND',
        inco_term: undefined,
        weight_unit: undefined,
        weight_uom: 'lb',
        weight: 10,
      },
      {
        carrier_code: 'UPS',
        inco_term: 'DAP',
        shipping: 66.8,
        fuel_surcharge: 13.03,
        amount: 79.83,
      },
    ],
    [
      // UPS Ground to a remote ZIP (597xx, rural Montana), 4 lb: US-C, 5 lb break 14.60; fuel
      // 19.5 % = 2.847 → 2.85; remote 0.35 × 4 lb = 1.40, below the 4.85 minimum: 4.85.
      // Amount 14.60 + 2.85 + 4.85 = 22.30.
      'remote-area minimum',
      {
        origin_country_code: 'US',
        dest_zip_code: '59701',
        service_code: 'UPS-GROUND',
        inco_term: undefined,
        weight: 4,
        weight_unit: 'lb',
      },
      { remote_area_surcharge: 4.85, amount: 22.3 },
    ],
  ])('%s', (_title, overrides, expected) => {
    expect(calculate(overrides)).toEqual(expect.objectContaining(expected));
  });

  it.each<[string, Record<string, unknown>, RatingErrorCode, string]>([
    [
      'a service offering DAP and DDP needs inco_term',
      { inco_term: undefined },
      RatingErrorCode.IncoTermRequired,
      'Validation failed: inco_term is required: service DHL-EXPRESS offers DAP and DDP',
    ],
    [
      'a term the service does not offer',
      { origin_country_code: 'US', service_code: 'UPS-GROUND', inco_term: 'DDP' },
      RatingErrorCode.IncoTermNotSupported,
      'Validation failed: inco_term DDP is not offered by service UPS-GROUND, which offers DAP',
    ],
    [
      'an unknown service',
      { service_code: 'FEDEX-2DAY' },
      RatingErrorCode.ServiceNotFound,
      'Validation failed: service_code FEDEX-2DAY is not a carrier service: GET /2025-07/cloud/service lists them.',
    ],
    [
      'an origin the service does not ship from',
      { service_code: 'UPS-GROUND', inco_term: undefined },
      RatingErrorCode.OriginNotServed,
      'UPS Ground does not ship from CN; it ships from US.',
    ],
    [
      'a destination without a zone',
      { origin_country_code: 'DE', dest_country_code: 'DE', dest_zip_code: '10115' },
      RatingErrorCode.NoZone,
      'DHL Express Worldwide only ships between countries, not within DE.',
    ],
    [
      'a parcel over the weight limit',
      { weight: 71 },
      RatingErrorCode.OverWeightLimit,
      'The weight (71 kg) is over the 70 kg limit of DHL Express Worldwide.',
    ],
  ])('refuses %s', (_title, overrides, code, message) => {
    expect(() => calculate(overrides)).toThrow(expect.objectContaining({ code, message }));
  });
});
