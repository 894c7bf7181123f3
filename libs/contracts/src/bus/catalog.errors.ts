/** Error codes answered by catalog-service. */
export enum CatalogErrorCode {
  ProductNotFound = 'catalog.product_not_found',
  DuplicateSku = 'catalog.duplicate_sku',
}
