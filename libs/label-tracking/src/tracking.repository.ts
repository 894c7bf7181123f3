import { EntityManager } from 'typeorm';
import { CarrierCheckpointEvent, CheckpointStatus } from '@consign/contracts';
import { CheckpointIdentity, TrackingSummary } from './tracking-state';
import { UnmatchedReason } from './unmatched-checkpoint.entity';

const TRACKING = '"labels"."tracking"';
const CHECKPOINT = '"labels"."checkpoint"';
const UNMATCHED = '"labels"."unmatched_checkpoint"';

/** A parcel's tracking row, locked for the transaction. */
export interface LockedTracking {
  id: number;
  trackingCourier: string | null;
  trackingNumber: string | null;
  allocatedAt: Date | null;
  summary: TrackingSummary;
}

export interface CheckpointRow extends CheckpointIdentity {
  status: CheckpointStatus;
  description: string;
}

export interface UnmatchedRow {
  event: CarrierCheckpointEvent;
  reason: UnmatchedReason;
}

/** A tracking number is unique per courier: the key of that pair. */
export function numberKey(courier: string, trackingNumber: string): string {
  return `${courier}\u0001${trackingNumber}`;
}

interface TrackingRecord {
  id: number;
  tracking_courier: string | null;
  tracking_number: string | null;
  allocated_at: Date | null;
  status: CheckpointStatus;
  status_at: Date;
  last_event_at: Date;
  outbound_time: Date | null;
  delivered_time: Date | null;
}

/**
 * The SQL of checkpoint ingestion: set-based statements, each taking its rows as one JSON
 * parameter (json_to_recordset), so a batch of any size is a handful of round trips.
 */
export class TrackingRepository {
  /** Parcels holding these (courier, tracking number) pairs. */
  async findByNumbers(
    manager: EntityManager,
    pairs: { courier: string; number: string }[],
  ): Promise<Map<string, number>> {
    if (pairs.length === 0) return new Map();
    const rows: { id: number; tracking_courier: string; tracking_number: string }[] =
      await manager.query(
        `SELECT t.id, t.tracking_courier, t.tracking_number
           FROM json_to_recordset($1::json) AS p(courier text, number text)
           JOIN ${TRACKING} t ON t.tracking_number = p.number AND t.tracking_courier = p.courier`,
        [JSON.stringify(pairs)],
      );
    return new Map(rows.map((r) => [numberKey(r.tracking_courier, r.tracking_number), r.id]));
  }

  /** Locks the parcels in id order (so concurrent writers never deadlock) and reads them. */
  async lock(manager: EntityManager, ids: number[]): Promise<Map<number, LockedTracking>> {
    if (ids.length === 0) return new Map();
    const rows: TrackingRecord[] = await manager.query(
      `SELECT id, tracking_courier, tracking_number, allocated_at, status, status_at,
              last_event_at, outbound_time, delivered_time
         FROM ${TRACKING} WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          trackingCourier: r.tracking_courier,
          trackingNumber: r.tracking_number,
          allocatedAt: r.allocated_at,
          summary: {
            status: r.status,
            statusAt: r.status_at,
            lastEventAt: r.last_event_at,
            outboundTime: r.outbound_time,
            deliveredTime: r.delivered_time,
          },
        },
      ]),
    );
  }

  async saveAllocations(manager: EntityManager, parcels: LockedTracking[]): Promise<void> {
    if (parcels.length === 0) return;
    await manager.query(
      `UPDATE ${TRACKING} t
          SET tracking_courier = a.courier, tracking_number = a.number, allocated_at = a.at
         FROM json_to_recordset($1::json) AS a(id bigint, courier text, number text, at timestamptz)
        WHERE t.id = a.id`,
      [
        JSON.stringify(
          parcels.map((p) => ({
            id: p.id,
            courier: p.trackingCourier,
            number: p.trackingNumber,
            at: p.allocatedAt,
          })),
        ),
      ],
    );
  }

  /**
   * Inserts the checkpoints, ignoring those already recorded (the unique dedupe key); returns the
   * identities of the rows actually inserted.
   */
  async insertCheckpoints(
    manager: EntityManager,
    rows: CheckpointRow[],
  ): Promise<CheckpointIdentity[]> {
    if (rows.length === 0) return [];
    const inserted: {
      tracking_id: number;
      event_time: Date;
      carrier_code: string;
      event_code: string;
      details: string | null;
    }[] = await manager.query(
      `INSERT INTO ${CHECKPOINT} (tracking_id, event_time, status, carrier_code, event_code, description, details)
       SELECT * FROM json_to_recordset($1::json) AS c(tracking_id bigint, event_time timestamptz,
         status text, carrier_code text, event_code text, description text, details text)
       ON CONFLICT DO NOTHING
       RETURNING tracking_id, event_time, carrier_code, event_code, details`,
      [
        JSON.stringify(
          rows.map((r) => ({
            tracking_id: r.trackingId,
            event_time: r.eventTime,
            status: r.status,
            carrier_code: r.carrierCode,
            event_code: r.eventCode,
            description: r.description,
            details: r.details,
          })),
        ),
      ],
    );
    return inserted.map((r) => ({
      trackingId: r.tracking_id,
      eventTime: r.event_time,
      carrierCode: r.carrier_code,
      eventCode: r.event_code,
      details: r.details,
    }));
  }

  async saveSummaries(
    manager: EntityManager,
    summaries: { id: number; summary: TrackingSummary }[],
  ): Promise<void> {
    if (summaries.length === 0) return;
    await manager.query(
      `UPDATE ${TRACKING} t
          SET status = s.status, status_at = s.status_at, last_event_at = s.last_event_at,
              outbound_time = s.outbound_time, delivered_time = s.delivered_time
         FROM json_to_recordset($1::json) AS s(id bigint, status text, status_at timestamptz,
           last_event_at timestamptz, outbound_time timestamptz, delivered_time timestamptz)
        WHERE t.id = s.id`,
      [
        JSON.stringify(
          summaries.map(({ id, summary }) => ({
            id,
            status: summary.status,
            status_at: summary.statusAt,
            last_event_at: summary.lastEventAt,
            outbound_time: summary.outboundTime,
            delivered_time: summary.deliveredTime,
          })),
        ),
      ],
    );
  }

  async park(manager: EntityManager, rows: UnmatchedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO ${UNMATCHED} (carrier_code, label_id, tracking_number, event, reason)
       SELECT u.event->>'carrier_code', (u.event->>'label_id')::bigint, u.event->>'tracking_number',
              u.event, u.reason
         FROM json_to_recordset($1::json) AS u(event jsonb, reason text)`,
      [JSON.stringify(rows)],
    );
  }

  /** Takes (deletes and returns, oldest first) the parked events waiting for these numbers. */
  async takeParked(
    manager: EntityManager,
    pairs: { courier: string; number: string }[],
  ): Promise<CarrierCheckpointEvent[]> {
    if (pairs.length === 0) return [];
    const rows: { id: number; event: CarrierCheckpointEvent }[] = await manager.query(
      // A CTE, so that TypeORM returns plain rows (a bare DELETE … RETURNING is [rows, count]).
      `WITH taken AS (
         DELETE FROM ${UNMATCHED} u
          USING json_to_recordset($1::json) AS p(courier text, number text)
          WHERE u.reason = '${UnmatchedReason.UnknownTrackingNumber}'
            AND u.tracking_number = p.number AND u.carrier_code = p.courier
          RETURNING u.id, u.event)
       SELECT * FROM taken`,
      [JSON.stringify(pairs)],
    );
    return rows.sort((a, b) => a.id - b.id).map((r) => r.event);
  }
}
