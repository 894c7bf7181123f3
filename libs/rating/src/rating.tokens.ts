/** Injection token of the compiled rate cards (ReferenceData), loaded once at start-up. */
export const REFERENCE_DATA = Symbol('rating:ReferenceData');
