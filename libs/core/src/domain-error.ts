/**
 * A use case's refusal, with a context's string-enum code (e.g. CatalogErrorCode.ProductNotFound).
 * Handlers turn it into a failed Reply; the gateway maps the code to an HTTP status in one place.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
