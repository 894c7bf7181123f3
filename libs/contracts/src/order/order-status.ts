/** Order states (spec: "Order status"). Transitions are in the architecture document. */
export enum OrderStatus {
  Draft = 'Draft',
  OnHold = 'OnHold',
  Approved = 'Approved',
  Processing = 'Processing',
  Fulfilled = 'Fulfilled',
  Completed = 'Completed',
  Cancelled = 'Cancelled',
}
