/** Unit of a length: label `length_unit`, calculation `dimension.uom`. */
export enum LengthUnit {
  M = 'm',
  Cm = 'cm',
  Mm = 'mm',
  Ft = 'ft',
  In = 'in',
}
