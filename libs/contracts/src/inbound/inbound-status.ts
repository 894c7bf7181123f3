/** Inbound order states (spec: "Inbound order status"). A new inbound order is Pending. */
export enum InboundStatus {
  Pending = 'Pending',
  Partial = 'Partial',
  Completed = 'Completed',
  Cancelled = 'Cancelled',
  Failure = 'Failure',
}
