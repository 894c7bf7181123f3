/**
 * How a destination is compared with the postal prefixes and cities of the rate cards: postal
 * codes in capitals with runs of spaces made one ("kw15 1ab" → "KW15 1AB", so the Orkney prefix
 * "KW15" matches it and Wick's "KW1 5…" does not); cities case-insensitively, accents kept.
 */
export function normalizePostalCode(zip: string | null | undefined): string {
  return (zip ?? '').trim().replace(/\s+/g, ' ').toUpperCase();
}

export function normalizeCity(city: string | null | undefined): string {
  return (city ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The longest of `prefixes` the normalized postal code starts with, or undefined. */
export function longestPrefixOf(
  postalCode: string,
  prefixes: readonly string[],
): string | undefined {
  let best: string | undefined;
  for (const prefix of prefixes) {
    if (postalCode.startsWith(prefix) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best;
}
