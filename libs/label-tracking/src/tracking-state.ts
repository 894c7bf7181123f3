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
 * What a batch of new checkpoints of one parcel says, reduced to what its summary needs — so the
 * summary is updated in one set-based statement (TrackingRepository.recordCheckpoints computes
 * deltaOf and applies mergeSummary in SQL) without reading the row first.
 */
export interface SummaryDelta {
  /** The latest new checkpoint: its time and status (of equal times, the later arrival). */
  latestTime: Date;
  latestStatus: CheckpointStatus;
  /** Latest carrier (not Consign) event time, if any. */
  lastCarrierTime: Date | null;
  /** Earliest in-transit time, if any. */
  firstTransitTime: Date | null;
  /** Latest delivery time, if any. */
  lastDeliveryTime: Date | null;
}

const later = (a: Date | null, b: Date): Date => (a === null || b > a ? b : a);
const earlier = (a: Date | null, b: Date): Date => (a === null || b < a ? b : a);

/** The delta of checkpoints in arrival order (at least one). */
export function deltaOf(checkpoints: readonly CheckpointFact[]): SummaryDelta {
  const delta: SummaryDelta = {
    latestTime: checkpoints[0].eventTime,
    latestStatus: checkpoints[0].status,
    lastCarrierTime: null,
    firstTransitTime: null,
    lastDeliveryTime: null,
  };
  for (const { eventTime: time, status, carrierCode } of checkpoints) {
    if (time >= delta.latestTime) {
      delta.latestTime = time;
      delta.latestStatus = status;
    }
    if (carrierCode !== CONSIGN_CARRIER) delta.lastCarrierTime = later(delta.lastCarrierTime, time);
    if (status === CheckpointStatus.InTransit)
      delta.firstTransitTime = earlier(delta.firstTransitTime, time);
    if (DELIVERY_STATUSES.includes(status))
      delta.lastDeliveryTime = later(delta.lastDeliveryTime, time);
  }
  return delta;
}

/**
 * A summary after a delta — what TrackingRepository.recordCheckpoints does in SQL: the status follows
 * the latest checkpoint by event time (a new one wins a tie: it arrived later), the expiry clock
 * and delivered_time only move forward, outbound_time only backward.
 */
export function mergeSummary(summary: TrackingSummary, delta: SummaryDelta): TrackingSummary {
  const newer = delta.latestTime >= summary.statusAt;
  return {
    status: newer ? delta.latestStatus : summary.status,
    statusAt: newer ? delta.latestTime : summary.statusAt,
    lastEventAt:
      delta.lastCarrierTime === null
        ? summary.lastEventAt
        : later(summary.lastEventAt, delta.lastCarrierTime),
    outboundTime:
      delta.firstTransitTime === null
        ? summary.outboundTime
        : earlier(summary.outboundTime, delta.firstTransitTime),
    deliveredTime:
      delta.lastDeliveryTime === null
        ? summary.deliveredTime
        : later(summary.deliveredTime, delta.lastDeliveryTime),
  };
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
  return checkpoints.length === 0 ? { ...summary } : mergeSummary(summary, deltaOf(checkpoints));
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
    // The instant (an event time may have been written in any zone).
    checkpoint.eventTime.getTime(),
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
