/** Incoterms of the cost calculations: delivered at place / delivered duty paid. */
export enum IncoTerm {
  DAP = 'DAP',
  DDP = 'DDP',
}
