import { OrderCostResultView, RatingErrorCode } from '@consign/contracts';
import { orderRequest } from '@consign/testing/fixtures';
import { findRateCardsFolder, loadRateCards } from '../rate-cards/rate-card.loader';
import { calculateOrder } from './order-calculation';
import { RatingFailure } from './rating-failure';

/*
 * Worked examples on the sample rate cards (libs/rating/rate-cards/*.v1.json). Each expected
 * figure is computed by hand in the comment above it, with the rules of rounding.ts: each charge
 * line rounded half up to the cent, totals are sums of lines. Rates used below:
 *   1 lb = 0.45359237 kg, 1 in = 2.54 cm; USD 1 = EUR 0.92 = GBP 0.79 = AUD 1.53.
 */

const data = loadRateCards(findRateCardsFolder());
const calculate = (overrides: Record<string, unknown>) =>
  calculateOrder(data, orderRequest(overrides));
const COUNTRY: Record<string, string> = { NJ: 'US', CA: 'US', DE: 'DE', GB: 'GB' };
/** Origins for warehouses `WH-<XX>-01`, each with its country. */
const from = (...codes: string[]) => ({
  origin_addresses: codes.map((code) => ({
    warehouse_code: code,
    country_code: COUNTRY[code.slice(3, 5)] ?? 'US',
  })),
});

function candidate(
  results: OrderCostResultView[],
  warehouse: string,
  service: string,
  incoTerm: string | null = 'DAP',
): OrderCostResultView {
  const found = results.find(
    (r) => r.warehouse_code === warehouse && r.service_code === service && r.inco_term === incoTerm,
  );
  if (!found)
    throw new Error(`no ${warehouse} ${service} ${incoTerm} in ${JSON.stringify(results)}`);
  return found;
}

describe('calculateOrder: worked examples', () => {
  it.each<[string, Record<string, unknown>, string, string, string, Partial<OrderCostResultView>]>([
    [
      // 16 × 12 × 10 in = 1920 in³ = 1920 × 2.54³ = 31 463.16288 cm³; / 5000 = 6.292632576 kg
      // = 13.8729 lb volumetric, against 2 lb actual: volumetric wins; rounded up to the 1 lb
      // increment: 14 lb. ZIP 60601 starts with 6: zone US-C; 14 lb is in the 20 lb break: 28.10.
      // Fuel 19.5 % × 28.10 = 5.4795 → 5.48. Not remote. Total shipping 28.10 + 5.48 = 33.58.
      // Newark: fulfilment 1.25, pick & pack 0.85, packaging: the parcel is 40.64 × 30.48 × 25.4
      // cm, too long for S (35 cm) and M (30 cm), fits L (50 × 40 × 30): 1.50.
      // Amount 33.58 + 1.25 + 0.85 + 1.50 = 37.18.
      'volumetric beats actual (lb and in)',
      {
        dest_address: { country_code: 'US', zip_code: '60601', city: 'Chicago' },
        weight: 2,
        weight_unit: 'lb',
        dimension: { length: 16, width: 12, height: 10, uom: 'in' },
      },
      'WH-NJ-01',
      'UPS-GROUND',
      'DAP',
      {
        charge_weight: 14,
        charge_weight_unit: 'lb',
        original_weight: 2,
        original_weight_unit: 'lb',
        service_zone: 'US-C',
        service_zone_id: 100102,
        shipping: 28.1,
        fuel_surcharge: 5.48,
        remote_area_surcharge: 0,
        total_shipping: 33.58,
        fulfillment: 1.25,
        pick_pack: 0.85,
        packaging: 1.5,
        amount: 37.18,
      },
    ],
    [
      // Same parcel with USPS Ground Advantage, divisor 6000: 31 463.16288 / 6000 = 5.2439 kg
      // = 11.5607 lb → 12 lb; zone C (ZIP 6), 20 lb break: 35.20; no fuel surcharge.
      // Amount 35.20 + 1.25 + 0.85 + 1.50 = 38.80.
      'the divisor is the service’s own',
      {
        dest_address: { country_code: 'US', zip_code: '60601' },
        weight: 2,
        weight_unit: 'lb',
        dimension: { length: 16, width: 12, height: 10, uom: 'in' },
      },
      'WH-NJ-01',
      'USPS-GROUND-ADV',
      'DAP',
      { charge_weight: 12, service_zone: 'C', shipping: 35.2, fuel_surcharge: 0, amount: 38.8 },
    ],
    [
      // 2.00 lb exactly stays 2 lb (exact arithmetic: no 453.59 g → 2.0000001 lb → 3 lb).
      // ZIP 10001 → US-E, 2 lb break: 11.65; fuel 19.5 % = 2.27175 → 2.27; total 13.92.
      // Packaging: 0.907 kg, no dimensions: S (up to 1 kg): 0.30.
      // Amount 13.92 + 1.25 + 0.85 + 0.30 = 16.32.
      'a weight on an increment is not rounded up',
      { dest_address: { country_code: 'US', zip_code: '10001' }, weight: 2, weight_unit: 'lb' },
      'WH-NJ-01',
      'UPS-GROUND',
      'DAP',
      { charge_weight: 2, shipping: 11.65, fuel_surcharge: 2.27, packaging: 0.3, amount: 16.32 },
    ],
    [
      // 1.25 kg = 2.7558 lb → 3 lb; Austin 73301 → US-C, 3 lb: 13.10; fuel 19.5 % = 2.5545 →
      // 2.55; total 15.65. Ontario: 1.10 + 0.80; packaging M (1.25 kg > 1 kg): 0.70.
      // Amount 15.65 + 1.10 + 0.80 + 0.70 = 18.25.
      'kg converted to a lb service',
      from('WH-CA-01'),
      'WH-CA-01',
      'UPS-GROUND',
      'DAP',
      { charge_weight: 3, original_weight: 1.25, original_weight_unit: 'kg', amount: 18.25 },
    ],
    [
      // DPD Classic, Leipzig to Wyk auf Föhr (25938, a North Sea island: remote). 1.25 kg → 1.5
      // kg (0.5 increment; DPD charges no volumetric weight); 3 kg break: 5.90; fuel 6.5 % =
      // 0.3835 → 0.38; remote 0.20 × 1.5 kg = 0.30, below the minimum: 4.50.
      // Total shipping 5.90 + 0.38 + 4.50 = 10.78. Leipzig: 1.20 + 0.90 + M 0.80 (EUR).
      // Amount 10.78 + 2.90 = 13.68 EUR.
      'remote-area minimum applies',
      { ...from('WH-DE-01'), dest_address: { country_code: 'DE', zip_code: '25938' } },
      'WH-DE-01',
      'DPD-CLASSIC',
      'DAP',
      {
        currency: 'EUR',
        service_zone: 'DE',
        charge_weight: 1.5,
        charge_weight_unit: 'kg',
        shipping: 5.9,
        fuel_surcharge: 0.38,
        remote_area_surcharge: 4.5,
        total_shipping: 10.78,
        amount: 13.68,
      },
    ],
    [
      // DHL Express to Stornoway (HS1, remote), 60 kg from Leipzig. 60 kg on the 0.5 increment:
      // 60 kg. Z2 (GB): 30 kg break 279.10 + (60 − 30) / 0.5 = 60 steps × 4.35 = 261.00 →
      // 540.10. Fuel 27.5 % = 148.5275 → 148.53. Remote 0.55 × 60 = 33.00, above the 28.50
      // minimum: 33.00. Total shipping 540.10 + 148.53 + 33.00 = 721.63 USD.
      // Leipzig fees EUR → USD (÷ 0.92): 1.20 → 1.30, 0.90 → 0.98; 60 kg: XL 3.80 → 4.13.
      // Amount 721.63 + 1.30 + 0.98 + 4.13 = 728.04.
      'remote area by weight, above the minimum; weight beyond the last break',
      {
        ...from('WH-DE-01'),
        dest_address: { country_code: 'GB', zip_code: 'HS1 2AB' },
        weight: 60,
      },
      'WH-DE-01',
      'DHL-EXPRESS',
      'DAP',
      {
        shipping: 540.1,
        fuel_surcharge: 148.53,
        remote_area_surcharge: 33,
        total_shipping: 721.63,
        fulfillment: 1.3,
        pick_pack: 0.98,
        packaging: 4.13,
        amount: 728.04,
      },
    ],
    [
      // DHL Express, Leipzig to London, 2 kg, under DAP: nothing is collected on import.
      // Z2, 2 kg: 55.20; fuel 27.5 % = 15.18; total 70.38. Fees EUR → USD: 1.30 + 0.98 + M 0.87.
      // Amount 70.38 + 3.15 = 73.53.
      'DAP collects no duty, VAT or DDP handling',
      {
        ...from('WH-DE-01'),
        dest_address: { country_code: 'GB', zip_code: 'SW1A 1AA', city: 'London' },
        weight: 2,
        declared_value: 200,
        currency: 'GBP',
      },
      'WH-DE-01',
      'DHL-EXPRESS',
      'DAP',
      { duty: 0, vat: 0, ddp_handling: 0, total_tax: 0, total_shipping: 70.38, amount: 73.53 },
    ],
    [
      // Same, DDP, declared GBP 100: below the GBP 135 duty de minimis (no duty), above the GBP 0
      // VAT one. Value in USD 100 / 0.79 = 126.58. The UK values imports CIF: customs value
      // 126.58 + 70.38 = 196.96; VAT 20 % = 39.392 → 39.39. DDP handling GBP 11 / 0.79 = 13.92.
      // Amount 73.53 + 39.39 + 13.92 = 126.84.
      'DDP below the duty de minimis: VAT only',
      {
        ...from('WH-DE-01'),
        dest_address: { country_code: 'GB', zip_code: 'SW1A 1AA' },
        weight: 2,
        declared_value: 100,
        currency: 'GBP',
      },
      'WH-DE-01',
      'DHL-EXPRESS',
      'DDP',
      {
        duty: 0,
        vat: 39.39,
        total_tax: 39.39,
        ddp_handling: 13.92,
        tax_currency: 'USD',
        amount: 126.84,
      },
    ],
    [
      // Declared GBP 200, above both thresholds. 200 / 0.79 = 253.16 USD; customs value 253.16
      // + 70.38 = 323.54; duty 4 % = 12.9416 → 12.94; VAT 20 % × (323.54 + 12.94) = 67.296 →
      // 67.30; handling 13.92. Amount 73.53 + 12.94 + 67.30 + 13.92 = 167.69.
      'DDP above the de minimis: duty and VAT',
      {
        ...from('WH-DE-01'),
        dest_address: { country_code: 'GB', zip_code: 'SW1A 1AA' },
        weight: 2,
        declared_value: 200,
        currency: 'GBP',
      },
      'WH-DE-01',
      'DHL-EXPRESS',
      'DDP',
      { duty: 12.94, vat: 67.3, total_tax: 80.24, ddp_handling: 13.92, amount: 167.69 },
    ],
    [
      // Coventry to New York with DHL, DDP, declared USD 50. The US duty de minimis is 0 and the
      // US values imports FOB (shipping not added): duty 5 % × 50.00 = 2.50; no VAT.
      // Z1, 1.5 kg (1.25 → 1.5) in the 2 kg break: 61.50; fuel 27.5 % = 16.9125 → 16.91;
      // total 78.41. Coventry fees GBP → USD (÷ 0.79): 1.00 → 1.27, 0.75 → 0.95, M 0.65 → 0.82.
      // Handling USD 15. Amount 78.41 + 3.04 + 2.50 + 15.00 = 98.95.
      'DDP into a FOB country',
      {
        ...from('WH-GB-01'),
        dest_address: { country_code: 'US', zip_code: '10001' },
        declared_value: 50,
        currency: 'USD',
      },
      'WH-GB-01',
      'DHL-EXPRESS',
      'DDP',
      { total_shipping: 78.41, duty: 2.5, vat: 0, ddp_handling: 15, amount: 98.95 },
    ],
    [
      // Newark to Sydney with DHL, DDP, declared USD 300 = AUD 459.00: below Australia's AUD
      // 1000 thresholds, so no duty or GST, but DDP handling AUD 20 / 1.53 = 13.07.
      // Z4, 1.5 kg → 2 kg break 74.60; fuel 27.5 % = 20.515 → 20.52; total 95.12.
      // Amount 95.12 + 1.25 + 0.85 + 0.75 + 13.07 = 111.04.
      'DDP below every de minimis: DDP handling only',
      {
        dest_address: { country_code: 'AU', zip_code: '2000', city: 'Sydney' },
        declared_value: 300,
      },
      'WH-NJ-01',
      'DHL-EXPRESS',
      'DDP',
      { duty: 0, vat: 0, ddp_handling: 13.07, total_shipping: 95.12, amount: 111.04 },
    ],
  ])('%s', (_title, overrides, warehouse, service, incoTerm, expected) => {
    expect(candidate(calculate(overrides), warehouse, service, incoTerm)).toMatchObject({
      code: 200,
      message: 'success',
      error_code: null,
      ...expected,
    });
  });
});

describe('calculateOrder: zones (the most specific rule wins)', () => {
  it.each<[string, Record<string, unknown>, string, string, string]>([
    // DPD has a rule for Germany, one for the city of Helgoland and one for its postal code.
    [
      'country alone',
      { country_code: 'DE', zip_code: '10115', city: 'Berlin' },
      'WH-DE-01',
      'DPD-CLASSIC',
      'DE',
    ],
    [
      'city beats country',
      { country_code: 'DE', city: ' helgoland ' },
      'WH-DE-01',
      'DPD-CLASSIC',
      'DE-ISL',
    ],
    [
      'postal prefix beats country',
      { country_code: 'DE', zip_code: '27498' },
      'WH-DE-01',
      'DPD-CLASSIC',
      'DE-ISL',
    ],
    // UPS: 1-digit prefixes for regions, 3-digit ones for Alaska and Hawaii: the longest wins.
    [
      'longest prefix wins',
      { country_code: 'US', zip_code: '99501' },
      'WH-NJ-01',
      'UPS-GROUND',
      'US-NC',
    ],
    ['shorter prefix', { country_code: 'US', zip_code: '94105' }, 'WH-NJ-01', 'UPS-GROUND', 'US-W'],
    // DHL: a rule for shipments from Germany to France beats the any-origin rule.
    [
      'origin-specific rule',
      { country_code: 'FR', zip_code: '75001' },
      'WH-DE-01',
      'DHL-EXPRESS',
      'Z0',
    ],
    ['any-origin rule', { country_code: 'FR', zip_code: '75001' }, 'WH-GB-01', 'DHL-EXPRESS', 'Z2'],
  ])('%s', (_title, dest, warehouse, service, zone) => {
    const results = calculate({ ...from(warehouse), dest_address: dest });
    expect(candidate(results, warehouse, service)).toMatchObject({ service_zone: zone });
  });
});

describe('calculateOrder: candidates that cannot be served', () => {
  it('prices the good warehouses and reports an unknown one as its own element (404)', () => {
    const results = calculate(from('WH-NJ-01', 'WH-XX-99', 'WH-CA-01'));
    const unknown = results.filter((r) => r.warehouse_code === 'WH-XX-99');
    expect(unknown).toEqual([
      expect.objectContaining({
        code: 404,
        error_code: RatingErrorCode.WarehouseNotFound,
        message: expect.stringContaining('WH-XX-99'),
        amount: null,
        service_code: null,
      }),
    ]);
    // Both US warehouses are priced with UPS Ground and USPS Ground Advantage.
    const priced = results.filter((r) => r.code === 200);
    expect(priced.map((r) => `${r.warehouse_code} ${r.service_code}`).sort()).toEqual([
      'WH-CA-01 UPS-GROUND',
      'WH-CA-01 USPS-GROUND-ADV',
      'WH-NJ-01 UPS-GROUND',
      'WH-NJ-01 USPS-GROUND-ADV',
    ]);
  });

  it('sorts successes by amount, then failures in request order', () => {
    const results = calculate(from('WH-XX-99', 'WH-NJ-01', 'WH-CA-01'));
    const successes = results.filter((r) => r.code === 200);
    const amounts = successes.map((r) => r.amount as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(results.slice(0, successes.length)).toEqual(successes);
    const failures = results.slice(successes.length);
    expect(failures[0]).toMatchObject({ warehouse_code: 'WH-XX-99', code: 404 });
    expect(failures.slice(1).map((r) => r.warehouse_code)).toEqual([
      'WH-NJ-01',
      'WH-NJ-01',
      'WH-CA-01',
      'WH-CA-01',
    ]);
  });

  it('refuses a battery where the service does not carry one, and prices the others', () => {
    // Newark to Toronto with a battery: USPS International refuses it, DHL carries it.
    const results = calculate({
      dest_address: { country_code: 'CA', zip_code: 'M5V 2T6', city: 'Toronto' },
      battery: 'Yes',
    });
    expect(candidate(results, 'WH-NJ-01', 'USPS-INTL', null)).toMatchObject({
      code: 422,
      error_code: RatingErrorCode.RestrictedContents,
      message: 'USPS First-Class Package International does not carry battery.',
      service_name: 'USPS First-Class Package International',
      carrier: 'USPS',
      amount: null,
    });
    expect(candidate(results, 'WH-NJ-01', 'DHL-EXPRESS', 'DAP')).toMatchObject({ code: 200 });
    expect(candidate(results, 'WH-NJ-01', 'DHL-EXPRESS', 'DDP')).toMatchObject({ code: 200 });
    // Without a battery USPS International prices it: 1.25 kg = 2.76 lb → 3 lb, PG1: 35.10.
    const without = calculate({ dest_address: { country_code: 'CA', zip_code: 'M5V 2T6' } });
    expect(candidate(without, 'WH-NJ-01', 'USPS-INTL')).toMatchObject({ shipping: 35.1 });
  });

  it('refuses a parcel over the service’s weight limit', () => {
    // USPS International carries up to 4 lb; 2 kg is 4.41 lb.
    const results = calculate({ dest_address: { country_code: 'CA' }, weight: 2 });
    expect(candidate(results, 'WH-NJ-01', 'USPS-INTL', null)).toMatchObject({
      code: 422,
      error_code: RatingErrorCode.OverWeightLimit,
      message:
        'The weight (4.41 lb) is over the 4 lb limit of USPS First-Class Package International.',
    });
  });

  it('refuses a volumetric weight above the heaviest priced break', () => {
    // USPS Ground Advantage prices up to 70 lb: 100 × 100 × 100 cm / 6000 = 166.67 kg.
    const results = calculate({ dimension: { length: 1, width: 1, height: 1, uom: 'm' } });
    expect(candidate(results, 'WH-NJ-01', 'USPS-GROUND-ADV', null)).toMatchObject({
      error_code: RatingErrorCode.OverWeightLimit,
      message: expect.stringContaining('chargeable weight (368 lb)'),
    });
  });

  it('reports a destination a service does not reach, and a domestic shipment an international one cannot take', () => {
    const results = calculate({ dest_address: { country_code: 'US' } });
    expect(candidate(results, 'WH-NJ-01', 'DHL-EXPRESS', null)).toMatchObject({
      code: 422,
      error_code: RatingErrorCode.NoZone,
      message: 'DHL Express Worldwide only ships between countries, not within US.',
    });
    const abroad = calculate({ dest_address: { country_code: 'JP', zip_code: '100-0001' } });
    expect(candidate(abroad, 'WH-NJ-01', 'UPS-GROUND', null)).toMatchObject({
      error_code: RatingErrorCode.NoZone,
      message: 'UPS Ground does not deliver to JP 100-0001.',
    });
  });

  it('refuses an origin whose country is not the warehouse’s', () => {
    const results = calculate({
      origin_addresses: [{ warehouse_code: 'WH-NJ-01', country_code: 'DE' }],
    });
    expect(results).toEqual([
      expect.objectContaining({
        warehouse_code: 'WH-NJ-01',
        code: 422,
        error_code: RatingErrorCode.OriginMismatch,
        message: 'Warehouse WH-NJ-01 is in US, not DE.',
      }),
    ]);
  });

  it('answers absurd but valid sizes per candidate, never with a crash or a float', () => {
    const results = calculate({
      dest_address: { country_code: 'GB' },
      weight: 9999999999.99,
      dimension: { length: 9999999999.99, width: 9999999999.99, height: 9999999999.99, uom: 'ft' },
    });
    expect(results.every((r) => r.code === 422 && r.amount === null)).toBe(true);
    expect(new Set(results.map((r) => r.error_code))).toEqual(
      new Set([RatingErrorCode.NoZone, RatingErrorCode.OverWeightLimit]),
    );
    // Light but enormous: DHL prices weight beyond its last break, so the price overflows.
    const huge = calculate({
      dest_address: { country_code: 'GB' },
      dimension: { length: 9999999999.99, width: 100, height: 100, uom: 'm' },
    });
    expect(candidate(huge, 'WH-NJ-01', 'DHL-EXPRESS', null)).toMatchObject({
      code: 422,
      error_code: RatingErrorCode.AmountOutOfRange,
    });
  });

  it('rates a warehouse named twice once', () => {
    const once = calculate(from('WH-NJ-01'));
    expect(calculate(from('WH-NJ-01', 'WH-NJ-01'))).toEqual(once);
  });
});

describe('calculateOrder: inco terms and currencies', () => {
  it('prices an international shipment under each term the service offers', () => {
    const results = calculate({ dest_address: { country_code: 'GB' } });
    const dhl = results.filter((r) => r.service_code === 'DHL-EXPRESS');
    expect(dhl.map((r) => r.inco_term)).toEqual(['DAP', 'DDP']);
  });

  it('prices a shipment inside a customs union once, as DAP, with no import charges', () => {
    // Leipzig to Paris: both in the EU customs union.
    const results = calculate({
      ...from('WH-DE-01'),
      dest_address: { country_code: 'FR' },
      declared_value: 1000,
      currency: 'EUR',
    });
    const dhl = results.filter((r) => r.service_code === 'DHL-EXPRESS');
    expect(dhl).toEqual([
      expect.objectContaining({ inco_term: 'DAP', duty: 0, vat: 0, ddp_handling: 0 }),
    ]);
  });

  it('takes a declared value without a currency as USD', () => {
    const usd = calculate({ dest_address: { country_code: 'GB' }, declared_value: 200 });
    const explicit = calculate({
      dest_address: { country_code: 'GB' },
      declared_value: 200,
      currency: 'USD',
    });
    expect(usd).toEqual(explicit);
  });

  it('fails the whole call for a declared value in a currency without a rate', () => {
    const call = () => calculate({ declared_value: 10, currency: 'CHF' });
    expect(call).toThrow(RatingFailure);
    expect(call).toThrow(/currency CHF has no conversion rate/);
  });

  it('fills every field of a result, with no float artefacts', () => {
    const [first] = calculate({ dest_address: { country_code: 'GB' }, declared_value: 33.33 });
    expect(first.error_code).toBeNull();
    for (const [field, value] of Object.entries(first)) {
      if (field !== 'error_code') expect([field, value]).not.toEqual([field, null]);
      if (typeof value === 'number') expect(String(value)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
  });
});
