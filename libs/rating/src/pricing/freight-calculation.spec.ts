import { RatingErrorCode } from '@consign/contracts';
import { freightRequest, orderRequest } from '@consign/testing/fixtures';
import { findRateCardsFolder, loadRateCards } from '../rate-cards/rate-card.loader';
import { calculateFreight } from './freight-calculation';
import { calculateOrder } from './order-calculation';

/* Worked examples on the sample rate cards; figures computed by hand as in order-calculation.spec. */

const data = loadRateCards(findRateCardsFolder());
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

  describe('a declared value and a result currency (labels are priced here)', () => {
    // The parcel: 2 × USD 400 jackets, 2.4 kg, New York to London, DHL Express, DDP.
    // 2.4 kg → 2.5 kg (0.5 kg increment), Z2 3 kg break 64.90; fuel 27.5 % = 17.8475 → 17.85;
    // total shipping 82.75. Declared USD 800 = GBP 632.00 at destination: above the GBP 135 duty
    // de minimis. The UK values imports CIF: 800.00 + 82.75 = 882.75; duty 4 % = 35.31; VAT 20 %
    // × (882.75 + 35.31) = 183.612 → 183.61; DDP handling GBP 11 / 0.79 = 13.924 → 13.92.
    // Amount 82.75 + 35.31 + 183.61 + 13.92 = 315.59.
    const parcel = {
      origin_country_code: 'US',
      origin_city: 'New York',
      origin_zip_code: '10001',
      dest_country_code: 'GB',
      dest_city: 'London',
      dest_zip_code: 'SW1A 1AA',
      weight: 2.4,
      declared_value: 800,
      currency: 'USD',
    };
    const usd = {
      shipping: 64.9,
      fuel_surcharge: 17.85,
      remote_area_surcharge: 0,
      duty: 35.31,
      vat: 183.61,
      ddp_handling: 13.92,
      amount: 315.59,
      currency: 'USD',
    };

    it('collects duty and VAT on the declared value under DDP', () => {
      expect(calculate(parcel)).toEqual(expect.objectContaining(usd));
    });

    it('agrees line by line with calculate/order for the same parcel', () => {
      const order = calculateOrder(
        data,
        orderRequest({
          origin_addresses: [{ warehouse_code: 'WH-NJ-01', country_code: 'US' }],
          dest_address: { country_code: 'GB', city: 'London', zip_code: 'SW1A 1AA' },
          weight: 2.4,
          declared_value: 800,
          currency: 'USD',
        }),
      ).find((r) => r.service_code === 'DHL-EXPRESS' && r.inco_term === 'DDP');
      const freight = calculate(parcel);
      expect(order).toMatchObject({
        shipping: freight.shipping,
        fuel_surcharge: freight.fuel_surcharge,
        remote_area_surcharge: freight.remote_area_surcharge,
        duty: freight.duty,
        vat: freight.vat,
        ddp_handling: freight.ddp_handling,
        currency: freight.currency,
      });
      // The order adds the warehouse's fees, nothing else.
      const fees = (order?.fulfillment ?? 0) + (order?.pick_pack ?? 0) + (order?.packaging ?? 0);
      expect(Math.round(((order?.amount ?? 0) - fees) * 100)).toBe(31559);
    });

    it('declares nothing under DAP', () => {
      expect(calculate({ ...parcel, inco_term: 'DAP' })).toEqual(
        expect.objectContaining({ duty: 0, vat: 0, ddp_handling: 0, amount: 82.75 }),
      );
    });

    it('answers in the wanted currency, each line converted and rounded half up', () => {
      // × 0.92: 64.90 → 59.708 → 59.71; 17.85 → 16.422 → 16.42; 35.31 → 32.4852 → 32.49;
      // 183.61 → 168.9212 → 168.92; 13.92 → 12.8064 → 12.81. The amount is the sum of the
      // converted lines: 290.35 (not 315.59 × 0.92 = 290.3428 → 290.34).
      expect(calculateFreight(data, freightRequest(parcel), 'EUR')).toEqual(
        expect.objectContaining({
          shipping: 59.71,
          fuel_surcharge: 16.42,
          remote_area_surcharge: 0,
          duty: 32.49,
          vat: 168.92,
          ddp_handling: 12.81,
          amount: 290.35,
          currency: 'EUR',
        }),
      );
    });

    it('takes a declared value in another currency', () => {
      // EUR 800 = USD 869.565 → 869.57 (GBP 686.96 at destination: duty is due). Customs value
      // 869.57 + 82.75 = 952.32; duty 4 % = 38.0928 → 38.09; VAT 20 % × 990.41 = 198.082 → 198.08.
      // In EUR: 59.71 + 16.42 + 35.04 (38.09 × 0.92 = 35.0428) + 182.23 (198.08 × 0.92 =
      // 182.2336) + 12.81 = 306.21.
      expect(calculateFreight(data, freightRequest({ ...parcel, currency: 'EUR' }), 'EUR')).toEqual(
        expect.objectContaining({ duty: 35.04, vat: 182.23, ddp_handling: 12.81, amount: 306.21 }),
      );
    });

    it('refuses a currency without a rate', () => {
      expect(() => calculateFreight(data, freightRequest(parcel), 'CHF')).toThrow(
        expect.objectContaining({ code: RatingErrorCode.UnsupportedCurrency }),
      );
      expect(() => calculate({ ...parcel, currency: 'CHF' })).toThrow(
        expect.objectContaining({ code: RatingErrorCode.UnsupportedCurrency }),
      );
    });
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
