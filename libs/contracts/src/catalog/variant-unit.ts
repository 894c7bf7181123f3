/** Selling unit of a variant. */
export enum VariantUnit {
  Pcs = 'pcs',
  Kg = 'kg',
}
