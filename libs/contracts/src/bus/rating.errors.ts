/**
 * Error codes of rating-service. A code is either a whole-call failure (a failed Reply, mapped to
 * an HTTP status in the gateway) or the `error_code` of one candidate of an order calculation
 * (`code` 404 or 422 in the element, the call itself succeeds). A freight calculation has one
 * candidate, so its candidate failures are whole-call failures (422).
 */
export enum RatingErrorCode {
  /** Freight: the service offers DAP and DDP and the request named neither (400). */
  IncoTermRequired = 'rating.inco_term_required',
  /** Freight: the service does not offer the requested inco term (400). */
  IncoTermNotSupported = 'rating.inco_term_not_supported',
  /** Freight: no service has this `service_code` (400). */
  ServiceNotFound = 'rating.service_not_found',
  /** The declared value's currency has no conversion rate (400). */
  UnsupportedCurrency = 'rating.unsupported_currency',
  /** Candidate: no warehouse has this `warehouse_code` (element code 404). */
  WarehouseNotFound = 'rating.warehouse_not_found',
  /** Candidate: the origin's `country_code` is not the warehouse's country (422). */
  OriginMismatch = 'rating.origin_mismatch',
  /** Candidate: no carrier service ships from the warehouse's country (422). */
  NoService = 'rating.no_service',
  /** Freight: the service does not ship from the origin country (422). */
  OriginNotServed = 'rating.origin_not_served',
  /** The service has no zone for the destination (422). */
  NoZone = 'rating.no_zone',
  /** The service refuses a declared content: battery, liquid or alcohol (422). */
  RestrictedContents = 'rating.restricted_contents',
  /** The actual weight is above the service's maximum (422). */
  OverWeightLimit = 'rating.over_weight_limit',
  /** A figure would not fit Number(12,2) (422). */
  AmountOutOfRange = 'rating.amount_out_of_range',
}
