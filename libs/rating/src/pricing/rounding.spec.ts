import {
  amountOf,
  basisPointsOf,
  ceilDiv,
  centsOf,
  mulDivHalfUp,
  percentOf,
  scaled,
} from './rounding';

describe('rounding', () => {
  it('reads a Number(12,2) exactly, even where binary floats are not', () => {
    expect(centsOf(0.1)).toBe(10);
    expect(centsOf(19.99)).toBe(1999);
    expect(centsOf(1.1)).toBe(110);
    expect(centsOf(9999999999.99)).toBe(999999999999);
    expect(scaled(0.000125, 6)).toBe(125);
  });

  it('refuses what validation should have refused', () => {
    expect(() => centsOf(1.005)).toThrow(RangeError);
    expect(() => centsOf(-1)).toThrow(RangeError);
    expect(() => centsOf(1e21)).toThrow(RangeError);
    expect(() => centsOf(Number.NaN)).toThrow(RangeError);
  });

  it('writes cents back without float artefacts', () => {
    expect(amountOf(1999)).toBe(19.99);
    expect(String(amountOf(10 + 20))).toBe('0.3'); // not 0.30000000000000004
    expect(String(amountOf(999999999999))).toBe('9999999999.99');
  });

  it.each([
    [1000, 1625, 162.5, 163], // 16.25 % of 10.00 = 1.625 → 1.63 (half up)
    [1000, 1624, 162.4, 162],
    [1085, 1950, 211.575, 212], // 19.5 % of 10.85 = 2.11575 → 2.12
    [2499, 2000, 499.8, 500],
  ])('percentOf(%i cents, %i bp): %p → %i', (cents, bp, _exact, expected) => {
    expect(percentOf(cents, bp)).toBe(expected);
  });

  it('rounds halves up and stays exact beyond 2^53', () => {
    expect(mulDivHalfUp(1, 1, 2)).toBe(1);
    expect(mulDivHalfUp(3, 1, 2)).toBe(2);
    expect(mulDivHalfUp(1, 1, 3)).toBe(0);
    // 999 999 999 999 × 147 500 000 / 1 000 000 = 147 499 999 999 852.5 → …853
    expect(mulDivHalfUp(999999999999, 147_500_000, 1_000_000)).toBe(147499999999853);
  });

  it('reads percentages in basis points', () => {
    expect(basisPointsOf(16.25)).toBe(1625);
    expect(basisPointsOf(19)).toBe(1900);
    expect(basisPointsOf(0)).toBe(0);
  });

  it('divides rounding up', () => {
    expect(ceilDiv(10n, 5n)).toBe(2n);
    expect(ceilDiv(11n, 5n)).toBe(3n);
    expect(ceilDiv(0n, 5n)).toBe(0n);
  });
});
