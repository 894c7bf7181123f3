import { DECIMAL_12_2, IsDecimal, isDecimal } from './decimal';
import { errorsFor } from '@consign/testing/fixtures';

class Money {
  @IsDecimal()
  amount!: number;

  @IsDecimal(12, 3)
  weight!: number;
}

describe('isDecimal', () => {
  it('defaults to Number(12,2)', () => {
    expect(DECIMAL_12_2).toEqual({ precision: 12, scale: 2 });
  });

  it.each<[unknown, boolean]>([
    [0, true],
    [1, true],
    [0.1, true],
    [0.01, true],
    [19.99, true],
    [-19.99, true],
    [1234567890.12, true],
    [9999999999.99, true],
    [9999999999, true],
    [12345678901.1, false],
    [99999999999, false],
    [12345678901, false],
    [1.005, false],
    [0.001, false],
    [0.1 + 0.2, false],
    [1e21, false],
    [1e-7, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    ['1.00', false],
    ['12', false],
    [null, false],
    [true, false],
  ])('Number(12,2): %p → %p', (value, expected) => {
    expect(isDecimal(value, 12, 2)).toBe(expected);
  });

  it.each<[unknown, boolean]>([
    [123456789.123, true],
    [0.001, true],
    [1234567890.1, false],
    [0.0005, false],
  ])('Number(12,3): %p → %p', (value, expected) => {
    expect(isDecimal(value, 12, 3)).toBe(expected);
  });

  it('the decorator names the property and the precision', () => {
    expect(errorsFor(Money, { amount: 1.005, weight: 1.0005 })).toEqual([
      'amount must be a number with at most 12 digits, 2 of them decimals',
      'weight must be a number with at most 12 digits, 3 of them decimals',
    ]);
    expect(errorsFor(Money, { amount: 1.01, weight: 1.001 })).toEqual([]);
  });
});
