/**
 * Tracking numbers in each carrier's published format, with its check digit, so that anything
 * validating a real number (a warehouse scanner, a merchant's shop, a tracking-number library)
 * accepts the sandbox's. The serial is the parcel id: one parcel, one number, stable.
 */

/** `value` as `length` digits, counting from `base` (wrapping past the width). */
const serial = (value: number, length: number, base = 0) =>
  String(base + value)
    .padStart(length, '0')
    .slice(-length);

/** A character's value in UPS's check digit: digits as they are, letters (code - 63) mod 10. */
const upsValue = (char: string) =>
  /\d/.test(char) ? Number(char) : (char.charCodeAt(0) - 63) % 10;

/**
 * UPS `1Z` numbers: `1Z`, 6-character shipper number, 2-digit service, 7-digit package number,
 * check digit: over the 15 characters after `1Z`, the sum of the odd positions plus twice the
 * even ones; the check digit brings it to a multiple of 10.
 */
export function upsTrackingNumber(parcelId: number, shipper = 'C0N51G', service = '01'): string {
  const body = `${shipper}${service}${serial(parcelId, 7)}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += upsValue(body[i]) * (i % 2 === 1 ? 2 : 1);
  return `1Z${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * GS1 mod 10 (USPS Intelligent Mail package barcode): from the rightmost digit, weights 3, 1,
 * 3, …; the check digit brings the sum to a multiple of 10.
 */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++)
    sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/**
 * USPS IMpb, 22 digits: application identifier 94, service type code 001 (Priority Mail), a
 * 9-digit Mailer ID, a 7-digit serial, and the GS1 mod 10 check digit.
 */
export function uspsTrackingNumber(parcelId: number, mailerId = '900123456'): string {
  const body = `94001${mailerId}${serial(parcelId, 7)}`;
  return `${body}${gs1CheckDigit(body)}`;
}

/** DHL Express waybill, 10 digits: a 9-digit serial and its remainder modulo 7. */
export function dhlTrackingNumber(parcelId: number): string {
  const body = serial(parcelId, 9, 300_000_000);
  return `${body}${Number(body) % 7}`;
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** ISO/IEC 7064 MOD 37,36, the check character DPD prints after its parcel number. */
export function iso7064Mod37x36(text: string): string {
  const m = 36;
  let product = m;
  for (const char of text) {
    let sum = (product + ALPHANUMERIC.indexOf(char)) % m;
    if (sum === 0) sum = m;
    product = (sum * 2) % (m + 1);
  }
  return ALPHANUMERIC[(m + 1 - product) % m];
}

/**
 * DPD parcel number, 14 digits (a 4-digit depot, a 10-digit serial) and its ISO 7064 MOD 37,36
 * check character. DPD's tracking pages take the 14 digits; the label prints all 15.
 */
export function dpdTrackingNumber(parcelId: number, depot = '0150'): string {
  const body = `${depot}${serial(parcelId, 10, 5_000_000_000)}`;
  return `${body}${iso7064Mod37x36(body)}`;
}

/** UPU S10 check digit: weights 8 6 4 2 3 5 9 7, then 11 − sum mod 11 (10 → 0, 11 → 5). */
export function s10CheckDigit(digits: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/**
 * Royal Mail tracked items, UPU S10: 2-letter UPU service indicator (RR: registered, tracked and
 * signed), 8-digit serial, check digit,
 * `GB`.
 */
export function royalMailTrackingNumber(parcelId: number, service = 'RR'): string {
  const body = serial(parcelId, 8);
  return `${service}${body}${s10CheckDigit(body)}GB`;
}
