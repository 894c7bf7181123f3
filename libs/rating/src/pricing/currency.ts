import { RatingErrorCode } from '@consign/contracts';
import type { CurrencyTable } from '../rate-cards/reference-data';
import { RatingFailure } from './rating-failure';
import { Cents, mulDivHalfUp } from './rounding';

/**
 * An amount in another currency: × rate(to) / rate(from), both rates per one unit of the base
 * currency, rounded half up to the cent (one rounding, whichever the currencies).
 */
export function convert(table: CurrencyTable, amount: Cents, from: string, to: string): Cents {
  if (from === to) return amount;
  return mulDivHalfUp(amount, rateOf(table, to), rateOf(table, from));
}

export function isSupportedCurrency(table: CurrencyTable, currency: string): boolean {
  return table.microRates.has(currency);
}

function rateOf(table: CurrencyTable, currency: string): number {
  const rate = table.microRates.get(currency);
  if (rate === undefined)
    throw new RatingFailure(
      RatingErrorCode.UnsupportedCurrency,
      `Validation failed: currency ${currency} has no conversion rate; supported: ${[...table.microRates.keys()].join(', ')}`,
    );
  return rate;
}
