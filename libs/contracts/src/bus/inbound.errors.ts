/** Error codes answered by inbound-service. */
export enum InboundErrorCode {
  InboundNotFound = 'inbound.inbound_not_found',
  /** The inbound order's state machine forbids the change (409, the current state in the message). */
  InvalidTransition = 'inbound.invalid_transition',
  /** A warehouse code or SKU that is not known, or a receipt line not on the order (400). */
  UnknownReference = 'inbound.unknown_reference',
}
