import { getTracking } from 'ts-tracking-number';
import { CARRIER_VOCABULARIES } from './carrier-vocabulary';
import {
  dhlTrackingNumber,
  dpdTrackingNumber,
  iso7064Mod37x36,
  royalMailTrackingNumber,
  upsTrackingNumber,
  uspsTrackingNumber,
} from './tracking-numbers';

/*
 * Validated by ts-tracking-number (the tracking_number_data formats and checksums many shops
 * use), not by our own arithmetic; DPD, which it does not know, by the properties of its check
 * system.
 */
const IDS = [1, 7, 42, 1234, 99_999, 8_765_432];

describe('sandbox tracking numbers', () => {
  it.each<[string, (id: number) => string, string]>([
    ['UPS', upsTrackingNumber, 'ups'],
    ['USPS', uspsTrackingNumber, 'usps'],
    ['DHL', dhlTrackingNumber, 'dhl'],
    ['RM', royalMailTrackingNumber, 's10'],
  ])('%s numbers have the carrier format and a valid check digit', (_carrier, make, courier) => {
    for (const id of IDS) expect(getTracking(make(id))?.courier.code).toBe(courier);
  });

  it('the validator refuses the same numbers with one digit changed (so the tests can fail)', () => {
    for (const make of [upsTrackingNumber, uspsTrackingNumber, dhlTrackingNumber]) {
      const number = make(42);
      const last = Number(number[number.length - 1]);
      expect(getTracking(`${number.slice(0, -1)}${(last + 1) % 10}`)).toBeUndefined();
    }
    const rm = royalMailTrackingNumber(42);
    const check = Number(rm[10]);
    expect(getTracking(`${rm.slice(0, 10)}${(check + 1) % 10}GB`)).toBeUndefined();
  });

  it('matches known published numbers', () => {
    // UPS's own sample 1Z 999 AA1 01 2345 6784; the UPU S10 example RB 12345678 5 GB.
    expect(upsTrackingNumber(2_345_678, '999AA1', '01')).toBe('1Z999AA10123456784');
    expect(royalMailTrackingNumber(12_345_678, 'RB')).toBe('RB123456785GB');
  });

  it('DPD: 14 digits and an ISO 7064 MOD 37,36 check character that catches every one-character error', () => {
    for (const id of IDS) {
      const number = dpdTrackingNumber(id);
      expect(number).toMatch(/^\d{14}[0-9A-Z]$/);
      const body = number.slice(0, 14);
      for (let i = 0; i < body.length; i++)
        for (const digit of '0123456789')
          if (digit !== body[i]) {
            const changed = `${body.slice(0, i)}${digit}${body.slice(i + 1)}`;
            expect(iso7064Mod37x36(changed)).not.toBe(number[14]);
          }
      // …and every swap of two different neighbours.
      for (let i = 0; i + 1 < body.length; i++)
        if (body[i] !== body[i + 1]) {
          const swapped = `${body.slice(0, i)}${body[i + 1]}${body[i]}${body.slice(i + 2)}`;
          expect(iso7064Mod37x36(swapped)).not.toBe(number[14]);
        }
    }
  });

  it('every carrier the sandbox plays numbers its parcels this way, one number per parcel', () => {
    expect(CARRIER_VOCABULARIES.UPS.trackingNumber(42)).toBe(upsTrackingNumber(42));
    expect(CARRIER_VOCABULARIES.USPS.trackingNumber(42)).toBe(uspsTrackingNumber(42));
    expect(CARRIER_VOCABULARIES.DHL.trackingNumber(42)).toBe(dhlTrackingNumber(42));
    expect(CARRIER_VOCABULARIES.DPD.trackingNumber(42)).toBe(dpdTrackingNumber(42));
    expect(CARRIER_VOCABULARIES.RM.trackingNumber(42)).toBe(royalMailTrackingNumber(42));
    for (const vocabulary of Object.values(CARRIER_VOCABULARIES))
      expect(new Set(IDS.map((id) => vocabulary.trackingNumber(id))).size).toBe(IDS.length);
  });
});
