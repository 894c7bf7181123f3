/** A checkpoint of an order's tracking. */
export class OrderCheckpointView {
  /** `yyyy-MM-dd HH:mm:ss`, UTC (the spec's sample format, kept by the house rules). */
  local_time!: string;
  /** Location or details. */
  details!: string | null;
  /** Carrier event text. */
  description!: string;
  /** Status of the checkpoint, e.g. `delivered`, `transit`. */
  status!: string;
}

/** Tracking of one shipment of an order (endpoint 8 returns an array of these). */
export class OrderTrackingView {
  /** Carrier code. */
  tracking_courier!: string;
  tracking_number!: string;
  /** ISO 8601 UTC. */
  outbound_time!: string | null;
  /** ISO 8601 UTC; null until delivered. */
  delivered_time!: string | null;
  /** Latest first. */
  checkpoints!: OrderCheckpointView[];
}
