import { EntityManager } from 'typeorm';
import { CarrierCheckpointEvent, CheckpointStatus } from '@consign/contracts';
import { CheckpointIdentity, SummaryDelta } from './tracking-state';
import { UnmatchedReason } from './unmatched-checkpoint.entity';

const TRACKING = '"labels"."tracking"';
const CHECKPOINT = '"labels"."checkpoint"';
const UNMATCHED = '"labels"."unmatched_checkpoint"';

/** A parcel's allocation, locked for the transaction (for the events that allocate). */
export interface LockedAllocation {
  id: number;
  trackingCourier: string | null;
  trackingNumber: string | null;
  allocatedAt: Date | null;
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

  /**
   * Locks the parcels a flush may write, in id order, in one statement, and answers which of them
   * exist. Every write of a flush (checkpoints, summaries, allocations) is to parcels it locked
   * here first, so two flushes sharing a parcel run one after the other from this point, and
   * flushes cannot deadlock on each other's parcels or checkpoints.
   */
  async lockParcels(manager: EntityManager, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows: { id: number }[] = await manager.query(
      `SELECT id FROM ${TRACKING} WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Reads the allocation of parcels this transaction has locked (lockParcels): nobody can have
   * changed it since.
   */
  async readAllocations(
    manager: EntityManager,
    ids: number[],
  ): Promise<Map<number, LockedAllocation>> {
    if (ids.length === 0) return new Map();
    const rows: {
      id: number;
      tracking_courier: string | null;
      tracking_number: string | null;
      allocated_at: Date | null;
    }[] = await manager.query(
      `SELECT id, tracking_courier, tracking_number, allocated_at
         FROM ${TRACKING} WHERE id = ANY($1::bigint[])`,
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
        },
      ]),
    );
  }

  async saveAllocations(manager: EntityManager, parcels: LockedAllocation[]): Promise<void> {
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

  /**
   * Moves each parcel's summary forward by its delta in one statement, without reading it first:
   * the arithmetic of mergeSummary (in a SET list every `t.` column is the value before the
   * update; GREATEST and LEAST ignore nulls).
   */
  async applyDeltas(
    manager: EntityManager,
    deltas: { id: number; delta: SummaryDelta }[],
  ): Promise<void> {
    if (deltas.length === 0) return;
    await manager.query(
      `UPDATE ${TRACKING} t
          SET status = CASE WHEN d.latest_time >= t.status_at THEN d.latest_status ELSE t.status END,
              status_at = GREATEST(t.status_at, d.latest_time),
              last_event_at = GREATEST(t.last_event_at, d.last_carrier_time),
              outbound_time = LEAST(t.outbound_time, d.first_transit_time),
              delivered_time = GREATEST(t.delivered_time, d.last_delivery_time)
         FROM json_to_recordset($1::json) AS d(id bigint, latest_time timestamptz,
           latest_status text, last_carrier_time timestamptz, first_transit_time timestamptz,
           last_delivery_time timestamptz)
        WHERE t.id = d.id`,
      [
        JSON.stringify(
          deltas
            .sort((a, b) => a.id - b.id)
            .map(({ id, delta }) => ({
              id,
              latest_time: delta.latestTime,
              latest_status: delta.latestStatus,
              last_carrier_time: delta.lastCarrierTime,
              first_transit_time: delta.firstTransitTime,
              last_delivery_time: delta.lastDeliveryTime,
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
