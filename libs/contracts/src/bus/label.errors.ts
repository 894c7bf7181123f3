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
  /** Documents asked for before the carrier allocated the tracking number (409). */
  NotAllocated = 'label.not_allocated',
  /** Documents of a voided label (410). */
  Voided = 'label.voided',
  /** Void after the carrier scanned the parcel (409). */
  AlreadyScanned = 'label.already_scanned',
  /** A customs declaration for a label that crosses no customs border (404). */
  NoCustomsDeclaration = 'label.no_customs_declaration',
}
