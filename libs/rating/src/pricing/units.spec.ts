import { LengthUnit, WeightUnit } from '@consign/contracts';
import {
  MASS_PER_UNIT,
  hundredthsIn,
  lengthIn,
  lengthOf,
  massOf,
  volumetricMass,
  weightIn,
} from './units';

const { G, Kg, Lb, Oz } = WeightUnit;

describe('weights', () => {
  // Exact definitions: 1 lb = 0.45359237 kg (1959), 1 oz = 1/16 lb, in units of 10⁻¹⁴ kg.
  it.each<[number, WeightUnit, bigint]>([
    [1, Kg, 100_000_000_000_000n],
    [1000, G, 100_000_000_000_000n],
    [1, Lb, 45_359_237_000_000n], // 453.59237 g
    [16, Oz, 45_359_237_000_000n], // 1 lb
    [2.2, Lb, 99_790_321_400_000n], // 997.903214 g
    [0.01, Oz, 28_349_523_125n], // 0.28349523125 g
  ])('%p %s is exactly %p × 10⁻¹⁴ kg', (value, unit, expected) => {
    expect(massOf(value, unit)).toBe(expected);
  });

  it('keeps every 2-decimal weight in g, kg, oz and lb exact', () => {
    for (const unit of [G, Kg, Oz, Lb]) {
      expect(massOf(0.01, unit) * 100n).toBe(MASS_PER_UNIT[unit]);
      expect(hundredthsIn(massOf(12.34, unit), unit)).toBe(1234);
    }
  });

  it('converts kg to lb and back, rounding up to the hundredth', () => {
    // 1 kg / 0.45359237 = 2.20462262… lb → 2.21; 1 lb = 0.45359237 kg → 0.46.
    expect(weightIn(massOf(1, Kg), Lb)).toBe(2.21);
    expect(weightIn(massOf(1, Lb), Kg)).toBe(0.46);
    // 5 lb = 2.26796185 kg → 2.27; 10 oz = 283.49523125 g → 283.5.
    expect(weightIn(massOf(5, Lb), Kg)).toBe(2.27);
    expect(weightIn(massOf(10, Oz), G)).toBe(283.5);
    expect(weightIn(massOf(1.25, Kg), Kg)).toBe(1.25);
  });

  it('is exact at the largest Number(12,2)', () => {
    expect(weightIn(massOf(9999999999.99, Lb), Lb)).toBe(9999999999.99);
  });
});

describe('lengths', () => {
  it.each<[number, LengthUnit, bigint]>([
    [1, LengthUnit.Mm, 1_000n],
    [1, LengthUnit.Cm, 10_000n],
    [1, LengthUnit.M, 1_000_000n],
    [1, LengthUnit.In, 25_400n], // 2.54 cm exactly
    [1, LengthUnit.Ft, 304_800n], // 12 in
    [0.01, LengthUnit.In, 254n],
    [3.5, LengthUnit.Ft, 1_066_800n], // 106.68 cm
    [10.5, LengthUnit.Cm, 105_000n],
  ])('%p %s is exactly %p µm', (value, unit, expected) => {
    expect(lengthOf(value, unit)).toBe(expected);
  });

  it('shows a length in another unit, rounded up to the hundredth', () => {
    expect(lengthIn(lengthOf(10, LengthUnit.In), LengthUnit.Cm)).toBe(25.4);
    expect(lengthIn(lengthOf(10, LengthUnit.Cm), LengthUnit.In)).toBe(3.94); // 3.937…
  });
});

describe('volumetricMass', () => {
  const cm = (value: number) => lengthOf(value, LengthUnit.Cm);

  it('divides the volume in cm³ by the divisor in cm³/kg', () => {
    // 30 × 20 × 10.5 cm = 6300 cm³; / 5000 = 1.26 kg exactly.
    expect(volumetricMass([cm(30), cm(20), cm(10.5)], 5000)).toBe(massOf(1.26, Kg));
  });

  it('rounds a remainder up to the mass unit, never down', () => {
    // 1 × 1 × 1 cm = 1 cm³; / 6000 = 0.000166… kg: just above 0.
    const mass = volumetricMass([cm(1), cm(1), cm(1)], 6000);
    expect(mass).toBe(MASS_PER_UNIT[Kg] / 6000n + 1n);
  });

  it('takes inches: 12 × 12 × 12 in / 5000 = 5.6633… kg', () => {
    const inch = (value: number) => lengthOf(value, LengthUnit.In);
    // 1728 in³ = 28316.846592 cm³ exactly; / 5000 = 5.6633693184 kg.
    expect(volumetricMass([inch(12), inch(12), inch(12)], 5000)).toBe(
      56_633_693_184n * 10_000n, // 5.6633693184 kg in 10⁻¹⁴ kg
    );
  });
});
