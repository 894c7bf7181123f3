/**
 * THE rounding rules of rating, written down once (docs/pricing.md repeats them for merchants):
 *
 * 1. Money is an integer number of hundredths of the currency unit ("cents"), in every currency
 *    (JPY too: results are Number(12,2)). No float ever holds a price.
 * 2. Each charge line (shipping, fuel surcharge, remote-area surcharge, each warehouse fee, duty,
 *    VAT, DDP handling) is computed exactly and then rounded half up to the cent, once.
 *    A currency conversion is a charge line of its own: rounded half up to the cent.
 * 3. Totals (`total_shipping`, `total_tax`, `amount`) are sums of rounded lines: never rounded
 *    again, so the lines always add up to the total.
 * 4. Weights are never rounded to the cent: the chargeable weight is rounded UP to a multiple of
 *    the service's weight increment (see chargeable-weight.ts).
 */

/** An amount in hundredths of a currency unit. */
export type Cents = number;

/** Number(12,2): 9 999 999 999.99 is the largest amount a result can carry. */
export const MAX_CENTS: Cents = 999_999_999_999;

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

/**
 * The exact integer `value × 10^places`, for a non-negative number given with at most `places`
 * decimals (judged on its shortest round-trip text, the same text JSON carried). Throws for
 * anything else: such a number must have been refused by validation.
 */
export function scaled(value: number, places: number): number {
  const match = Number.isFinite(value) ? DECIMAL_TEXT.exec(String(value)) : null;
  const fraction = match?.[2] ?? '';
  if (!match || fraction.length > places)
    throw new RangeError(`${value} is not a non-negative number with at most ${places} decimals`);
  const result = Number(match[1] + fraction.padEnd(places, '0'));
  if (!Number.isSafeInteger(result)) throw new RangeError(`${value} is too large`);
  return result;
}

/** A Number(12,2) amount in cents, exactly. */
export function centsOf(amount: number): Cents {
  return scaled(amount, 2);
}

/**
 * The JSON number of an amount in cents. Dividing two exact integers gives the double nearest to
 * the decimal, whose shortest text is that decimal: 1999 → 19.99, never 19.990000000000002.
 */
export function amountOf(cents: Cents): number {
  return cents / 100;
}

/** A percentage with at most 2 decimals in basis points (hundredths of a percent): 16.25 → 1625. */
export function basisPointsOf(percent: number): number {
  return scaled(percent, 2);
}

/**
 * round(a × b / c), halves rounded up, for non-negative integers: exact whatever the size (BigInt
 * when a × b leaves the range where doubles are exact).
 */
export function mulDivHalfUp(a: number, b: number, c: number): number {
  if (c <= 0) throw new RangeError('divisor must be positive');
  const product = a * b;
  if (Number.isSafeInteger(product)) {
    let quotient = Math.floor(product / c);
    let remainder = product - quotient * c;
    // The float division may land one off for large products: correct with the exact remainder.
    if (remainder < 0) {
      quotient -= 1;
      remainder += c;
    } else if (remainder >= c) {
      quotient += 1;
      remainder -= c;
    }
    return remainder * 2 >= c ? quotient + 1 : quotient;
  }
  const big = BigInt(a) * BigInt(b);
  const divisor = BigInt(c);
  const result = (big * 2n + divisor) / (divisor * 2n);
  return Number(result);
}

/** `percent` (in basis points) of an amount, rounded half up to the cent. */
export function percentOf(cents: Cents, basisPoints: number): Cents {
  return mulDivHalfUp(cents, basisPoints, 10_000);
}

/** ⌈a / b⌉ for non-negative a and positive b. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
