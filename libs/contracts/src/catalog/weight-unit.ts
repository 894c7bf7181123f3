/** Unit of a weight: variant `weight_unit`, label `weight_unit`. */
export enum WeightUnit {
  G = 'g',
  Kg = 'kg',
  Oz = 'oz',
  Lb = 'lb',
}
