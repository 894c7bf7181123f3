/** Error codes answered by catalog-service. */
export enum CatalogErrorCode {
  ProductNotFound = 'catalog.product_not_found',
  DuplicateSku = 'catalog.duplicate_sku',
  /** A variant id that is not one of the merchant's (e.g. in a receipt). */
  UnknownVariant = 'catalog.unknown_variant',
}
