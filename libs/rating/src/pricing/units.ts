import { LengthUnit, WeightUnit } from '@consign/contracts';
import { scaled } from './rounding';

/**
 * Exact weights and lengths. A weight is a BigInt count of 10⁻¹⁴ kg: the largest unit in which
 * 0.01 g, 0.01 kg, 0.01 oz (0.28349523125 g) and 0.01 lb (4.5359237 g) are all whole numbers, so
 * every weight a request can carry (2 decimals in any of those units) is exact, and so is every
 * comparison with a weight break or an increment in kg or lb. (Whole grams would not do: 1 lb is
 * 453.59237 g, and rounding it to 454 g would push a 1 lb parcel into the 2 lb break.)
 * A length is a BigInt count of micrometres: 0.01 in is 254 µm, 0.01 ft 3048 µm.
 */
export type Mass = bigint;
export type Length = bigint;

/** Mass units (10⁻¹⁴ kg) in one unit of each weight unit. */
export const MASS_PER_UNIT: Readonly<Record<WeightUnit, Mass>> = {
  [WeightUnit.G]: 100_000_000_000n,
  [WeightUnit.Kg]: 100_000_000_000_000n,
  [WeightUnit.Oz]: 2_834_952_312_500n,
  [WeightUnit.Lb]: 45_359_237_000_000n,
};

/** Micrometres in one unit of each length unit. */
export const MICROMETRES_PER_UNIT: Readonly<Record<LengthUnit, Length>> = {
  [LengthUnit.Mm]: 1_000n,
  [LengthUnit.Cm]: 10_000n,
  [LengthUnit.M]: 1_000_000n,
  [LengthUnit.In]: 25_400n,
  [LengthUnit.Ft]: 304_800n,
};

/** An exact weight from a value with at most 2 decimals. */
export function massOf(value: number, unit: WeightUnit): Mass {
  return (BigInt(scaled(value, 2)) * MASS_PER_UNIT[unit]) / 100n;
}

/** An exact length from a value with at most 2 decimals. */
export function lengthOf(value: number, unit: LengthUnit): Length {
  return (BigInt(scaled(value, 2)) * MICROMETRES_PER_UNIT[unit]) / 100n;
}

/**
 * A weight in `unit`, in hundredths, rounded up (a weight shown to a merchant is never smaller
 * than the real one). Exact when the weight is a whole number of hundredths of `unit`.
 */
export function hundredthsIn(mass: Mass, unit: WeightUnit): number {
  const per = MASS_PER_UNIT[unit];
  return Number((mass * 100n + per - 1n) / per);
}

/** A weight in `unit` as a Number(12,2), rounded up to the hundredth. */
export function weightIn(mass: Mass, unit: WeightUnit): number {
  return hundredthsIn(mass, unit) / 100;
}

/** A length in `unit` as a number with 2 decimals, rounded up to the hundredth. */
export function lengthIn(length: Length, unit: LengthUnit): number {
  const per = MICROMETRES_PER_UNIT[unit];
  return Number((length * 100n + per - 1n) / per) / 100;
}

/**
 * The volumetric weight of a box: length × width × height / divisor, the divisor in cm³ per kg
 * (5000 means 5000 cm³ weigh 1 kg), rounded up to the mass unit. In mass units (10⁻¹⁴ kg) that is
 * µm³ × 10¹⁴ / (10¹² × divisor) = µm³ × 100 / divisor.
 */
export function volumetricMass(dimensions: readonly Length[], divisorCm3PerKg: number): Mass {
  const volume = dimensions.reduce((product, side) => product * side, 1n);
  const divisor = BigInt(divisorCm3PerKg);
  return (volume * 100n + divisor - 1n) / divisor;
}
