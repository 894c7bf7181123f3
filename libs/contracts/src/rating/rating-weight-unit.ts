import { WeightUnit } from '../catalog/weight-unit';

/** Weight units the cost calculations accept: kg and lb only. */
export const RATING_WEIGHT_UNITS = [WeightUnit.Kg, WeightUnit.Lb] as const;

export type RatingWeightUnit = (typeof RATING_WEIGHT_UNITS)[number];
