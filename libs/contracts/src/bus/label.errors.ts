/** Error codes answered by label-tracking-service. */
export enum LabelErrorCode {
  /** No label with this id for this merchant (404). */
  LabelNotFound = 'label.label_not_found',
  /** Label tracking of an unknown label: 404 with the spec's text "Order not found.". */
  TrackingNotFound = 'label.tracking_not_found',
}
