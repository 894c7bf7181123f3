/** Error codes answered by order-service. */
export enum OrderErrorCode {
  OrderNotFound = 'order.order_not_found',
  /** The order's state machine forbids the change (409, the current state in the message). */
  InvalidTransition = 'order.invalid_transition',
  /** A warehouse or service code the reference data does not know (400). */
  UnknownReference = 'order.unknown_reference',
}
