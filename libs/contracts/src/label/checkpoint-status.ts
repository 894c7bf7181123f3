/**
 * Normalised status of a label tracking checkpoint (spec: "Checkpoint status"), in typical
 * lifecycle order. Not the carrier's own event code; the carrier text is the `description`.
 */
export enum CheckpointStatus {
  /** Shipment information received and label created; the carrier may not hold the package yet. */
  InformationReceived = 'information_received',
  /** The carrier accepted the shipment; it moves through the carrier network. */
  InTransit = 'in_transit',
  /** With the local courier for final delivery. */
  OutForDelivery = 'out_for_delivery',
  /** Available for collection at a pickup point. */
  AvailableForPickup = 'available_for_pickup',
  /** A delivery attempt failed; another may follow. */
  DeliveryAttemptFailed = 'delivery_attempt_failed',
  /** Successfully delivered. */
  Delivered = 'delivered',
  /** Recorded as delivered, but an abnormal condition was reported. */
  DeliveredWithException = 'delivered_with_exception',
  /** Return, customs issue, loss, damage or similar. */
  Exception = 'exception',
  /** Abandoned, destroyed or otherwise disposed of (terminal). */
  Disposed = 'disposed',
  /** In transit for an extended period without a delivery result. */
  Expired = 'expired',
  /** The status could not be determined. */
  Unknown = 'unknown',
}
