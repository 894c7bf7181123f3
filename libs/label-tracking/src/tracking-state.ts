import { CheckpointStatus } from '@consign/contracts';

/** The carrier code of checkpoints Consign writes itself (label created, expired). */
export const CONSIGN_CARRIER = 'CONSIGN';

/** After these nothing is expected: such a parcel does not expire. */
export const TERMINAL_STATUSES: readonly CheckpointStatus[] = [
  CheckpointStatus.Delivered,
  CheckpointStatus.DeliveredWithException,
  CheckpointStatus.Disposed,
  CheckpointStatus.Expired,
];

/** A delivery: sets `delivered_time` (a delivery with an exception is a delivery too). */
export const DELIVERY_STATUSES: readonly CheckpointStatus[] = [
  CheckpointStatus.Delivered,
  CheckpointStatus.DeliveredWithException,
];

/** What a parcel's tracking row keeps about its checkpoints. */
export interface TrackingSummary {
  /** Status of the latest checkpoint by event time. */
  status: CheckpointStatus;
  statusAt: Date;
  /** Latest carrier event time (creation before any): 30 days past it the parcel expires. */
  lastEventAt: Date;
  /** Earliest in-transit checkpoint: when the carrier first had the parcel moving. */
  outboundTime: Date | null;
  /** Latest delivery checkpoint. */
  deliveredTime: Date | null;
}

export interface CheckpointFact {
  eventTime: Date;
  status: CheckpointStatus;
  carrierCode: string;
}

/**
 * Folds newly recorded checkpoints (in arrival order) into a parcel's summary. Order of arrival
 * does not matter except between checkpoints of the very same time (the later arrival wins):
 * an old event arriving late changes neither the status nor the expiry clock.
 */
export function foldCheckpoints(
  summary: TrackingSummary,
  checkpoints: readonly CheckpointFact[],
): TrackingSummary {
  const next = { ...summary };
  for (const checkpoint of checkpoints) {
    const time = checkpoint.eventTime;
    if (time.getTime() >= next.statusAt.getTime()) {
      next.status = checkpoint.status;
      next.statusAt = time;
    }
    if (checkpoint.carrierCode !== CONSIGN_CARRIER && time > next.lastEventAt)
      next.lastEventAt = time;
    if (
      DELIVERY_STATUSES.includes(checkpoint.status) &&
      (next.deliveredTime === null || time > next.deliveredTime)
    )
      next.deliveredTime = time;
    if (
      checkpoint.status === CheckpointStatus.InTransit &&
      (next.outboundTime === null || time < next.outboundTime)
    )
      next.outboundTime = time;
  }
  return next;
}

/** The fields that make two carrier events the same checkpoint (the table's unique key). */
export interface CheckpointIdentity {
  trackingId: number;
  eventTime: Date;
  carrierCode: string;
  eventCode: string;
  details: string | null;
}

export function checkpointKey(checkpoint: CheckpointIdentity): string {
  return [
    checkpoint.trackingId,
    checkpoint.eventTime.toISOString(),
    checkpoint.carrierCode,
    checkpoint.eventCode,
    checkpoint.details ?? '\u0000',
  ].join('\u0001');
}

/** The first of each group of identical checkpoints, in order. */
export function withoutDuplicates<T extends CheckpointIdentity>(checkpoints: readonly T[]): T[] {
  const seen = new Set<string>();
  return checkpoints.filter((checkpoint) => {
    const key = checkpointKey(checkpoint);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A location as a checkpoint's `details`: trimmed, and null when there is none. */
export function detailsOf(location: string | null | undefined): string | null {
  const trimmed = location?.trim();
  return trimmed ? trimmed : null;
}
