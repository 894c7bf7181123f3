/** Error codes answered by label-tracking-service. */
export enum LabelErrorCode {
  /** No label with this id for this merchant (404). */
  LabelNotFound = 'label.label_not_found',
  /** Label tracking of an unknown label: 404 with the spec's text "Order not found.". */
  TrackingNotFound = 'label.tracking_not_found',
  /** `service.service_code` is no carrier service, or it does not offer `service.inco_term` (400). */
  InvalidService = 'label.invalid_service',
  /** The service does not carry what `package_attributes` declares (422). */
  RestrictedContents = 'label.restricted_contents',
}
