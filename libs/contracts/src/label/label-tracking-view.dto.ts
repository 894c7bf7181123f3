import { CheckpointStatus } from './checkpoint-status';

/** A checkpoint of a label's tracking. */
export class LabelCheckpointView {
  /** ISO 8601 UTC with a trailing Z. */
  local_time!: string;
  /** Location or details. */
  details!: string | null;
  /** Carrier event text. */
  description!: string;
  status!: CheckpointStatus;
}

/** Tracking of a label (endpoint 2). */
export class LabelTrackingView {
  /** Carrier code; null until a carrier is allocated. */
  tracking_courier!: string | null;
  /** Null until the carrier tracking number is allocated. */
  tracking_number!: string | null;
  /** ISO 8601 UTC; carrier-dependent, not the dispatch time; may be null. */
  outbound_time!: string | null;
  /** ISO 8601 UTC; null until delivered. */
  delivered_time!: string | null;
  /** Latest first. */
  checkpoints!: LabelCheckpointView[];
}
