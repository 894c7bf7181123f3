import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  CarrierCheckpointEvent,
  CheckpointStatus,
  LabelTrackingView,
  OrderTrackingView,
} from '@consign/contracts';
import { Sql } from '@consign/database';
import { isoUtc, plainUtc } from './sql-time';
import { CONSIGN_CARRIER, CheckpointIdentity, DELIVERY_STATUSES } from './tracking-state';

const TRACKING = '"labels"."tracking"';
const CHECKPOINT = '"labels"."checkpoint"';
const UNMATCHED = '"labels"."unmatched_checkpoint"';
const LABEL = '"labels"."label"';
const SHIPMENT = '"labels"."shipment"';

/** Who holds a tracking number (parcelByNumber). */
export interface ParcelHolder {
  id: number;
  merchant_id: number;
  /** When the label was voided; null for a valid label or an order's parcel. */
  voided_at: Date | null;
}

/** Why a carrier event was parked in unmatched_checkpoint (kept, never dropped). */
export enum UnmatchedReason {
  /** No label has the event's `label_id`: parked for an operator. */
  UnknownLabel = 'unknown_label',
  /** The tracking number is not allocated yet: attached to the parcel when it is. */
  UnknownTrackingNumber = 'unknown_tracking_number',
}

/** Order tracking's name for in_transit (the spec's sample shows `transit`). */
export const ORDER_TRANSIT_STATUS = 'transit';

/**
 * A parcel's (`t`) checkpoints as a JSON array in the label-tracking format, latest first: those
 * matching `condition` on `c` (a fixed SQL fragment, never input).
 */
export function labelCheckpointsJson(condition: string): string {
  return `COALESCE((
    SELECT json_agg(json_build_object(
             'local_time', ${isoUtc('c.event_time')}, 'details', c.details,
             'description', c.description, 'status', c.status)
           ORDER BY c.event_time DESC, c.id DESC)
      FROM ${CHECKPOINT} c WHERE c.tracking_id = t.id AND ${condition}), '[]'::json)`;
}

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
 * The SQL of the tracking aggregate: a parcel (labels.tracking) with its checkpoints, and the
 * carrier events parked for no known parcel. Checkpoint ingestion is set-based statements, each
 * taking its rows as one JSON parameter (json_to_recordset) or one array per column (unnest), so
 * a batch of any size is a handful of round trips. Tracking reads are one statement each,
 * checkpoints latest first; carrier events that came after a label was voided are kept but left
 * out (the label record lists them).
 */
@Injectable()
export class TrackingRepository {
  async labelTracking(
    sql: Sql,
    merchantId: number,
    labelId: number,
  ): Promise<LabelTrackingView | undefined> {
    const [row]: LabelTrackingView[] = await sql.query(
      `SELECT t.tracking_courier, t.tracking_number,
              ${isoUtc('t.outbound_time')} AS outbound_time,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              ${labelCheckpointsJson('NOT c.after_void')} AS checkpoints
         FROM ${LABEL} l JOIN ${TRACKING} t ON t.id = l.id
        WHERE l.id = $1 AND l.merchant_id = $2`,
      [labelId, merchantId],
    );
    return row;
  }

  /**
   * The tracking of each shipment of an order, in the spec's order-tracking format: checkpoint
   * `local_time` as `yyyy-MM-dd HH:mm:ss` (UTC) and `transit` for `in_transit`.
   */
  async orderTracking(sql: Sql, merchantId: number, orderId: number): Promise<OrderTrackingView[]> {
    return sql.query(
      `SELECT t.tracking_courier, t.tracking_number,
              ${isoUtc('t.outbound_time')} AS outbound_time,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              COALESCE((
                SELECT json_agg(json_build_object(
                         'local_time', ${plainUtc('c.event_time')}, 'details', c.details,
                         'description', c.description,
                         'status', CASE c.status WHEN '${CheckpointStatus.InTransit}' THEN '${ORDER_TRANSIT_STATUS}'
                                   ELSE c.status END)
                       ORDER BY c.event_time DESC, c.id DESC)
                  FROM ${CHECKPOINT} c WHERE c.tracking_id = t.id AND NOT c.after_void),
                '[]'::json) AS checkpoints
         FROM ${SHIPMENT} s JOIN ${TRACKING} t ON t.id = s.tracking_id
        WHERE s.order_id = $1 AND s.merchant_id = $2
        ORDER BY s.id`,
      [orderId, merchantId],
    );
  }

  /** The labels among these parcels, and the orders with a shipment among them. */
  async trackedBy(
    sql: Sql,
    trackingIds: number[],
  ): Promise<{ kind: 'label' | 'order'; id: number; merchant_id: number }[]> {
    return sql.query(
      `SELECT 'label' AS kind, l.id, l.merchant_id FROM ${LABEL} l
        WHERE l.id = ANY($1::bigint[])
       UNION
       SELECT DISTINCT 'order' AS kind, s.order_id AS id, s.merchant_id FROM ${SHIPMENT} s
        WHERE s.tracking_id = ANY($1::bigint[])`,
      [trackingIds],
    );
  }

  /**
   * Expires up to `batch` parcels (by id) not in a terminal state, not voided and silent since
   * `cutoff`: claimed with FOR UPDATE SKIP LOCKED, marked expired and given an `expired`
   * checkpoint at `now`, in one statement. Answers the parcels it expired.
   */
  async expireSilent(
    sql: Sql,
    expiry: {
      cutoff: Date;
      now: Date;
      terminal: readonly string[];
      batch: number;
      checkpoint: { eventCode: string; description: string };
    },
  ): Promise<number[]> {
    const marked: { tracking_id: number }[] = await sql.query(
      `WITH due AS (
         SELECT id FROM ${TRACKING}
          WHERE status <> ALL($3::text[]) AND last_event_at < $1 AND voided_at IS NULL
          ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED),
       marked AS (
         UPDATE ${TRACKING} t SET status = '${CheckpointStatus.Expired}', status_at = $2
           FROM due WHERE t.id = due.id RETURNING t.id)
       INSERT INTO ${CHECKPOINT}
         (tracking_id, event_time, status, carrier_code, event_code, description, details)
       SELECT id, $2, '${CheckpointStatus.Expired}', '${CONSIGN_CARRIER}', $5, $6, NULL FROM marked
       ON CONFLICT DO NOTHING
       RETURNING tracking_id`,
      [
        expiry.cutoff,
        expiry.now,
        expiry.terminal,
        expiry.batch,
        expiry.checkpoint.eventCode,
        expiry.checkpoint.description,
      ],
    );
    return marked.map((row) => Number(row.tracking_id));
  }

  /**
   * The parcel holding this courier's tracking number, if any: its merchant and when its label was
   * voided. `lock`: held FOR UPDATE to the end of the caller's transaction.
   */
  async parcelByNumber(
    sql: Sql,
    courier: string,
    number: string,
    lock: boolean,
  ): Promise<ParcelHolder | undefined> {
    const [existing]: ParcelHolder[] = await sql.query(
      `SELECT id, merchant_id, voided_at FROM ${TRACKING}
        WHERE tracking_number = $1 AND tracking_courier = $2${lock ? ' FOR UPDATE' : ''}`,
      [number, courier],
    );
    return existing;
  }

  /**
   * A new parcel with the courier's number allocated at `at`, and its first checkpoint
   * (`information_received`), in one statement; answers its id.
   */
  async insertAllocated(
    sql: Sql,
    parcel: {
      merchantId: number;
      courier: string;
      number: string;
      at: Date;
      checkpoint: { eventCode: string; description: string };
    },
  ): Promise<number> {
    const [row]: { id: number }[] = await sql.query(
      `WITH tracking AS (
         INSERT INTO ${TRACKING} (merchant_id, carrier_code, tracking_courier, tracking_number,
           allocated_at, status, status_at, last_event_at, created_at)
         VALUES ($1, $2, $2, $3, $4, '${CheckpointStatus.InformationReceived}', $4, $4, $4)
         RETURNING id)
       INSERT INTO ${CHECKPOINT} (tracking_id, event_time, status, carrier_code, event_code, description)
       SELECT id, $4, '${CheckpointStatus.InformationReceived}', '${CONSIGN_CARRIER}', $5, $6 FROM tracking
       RETURNING tracking_id AS id`,
      [
        parcel.merchantId,
        parcel.courier,
        parcel.number,
        parcel.at,
        parcel.checkpoint.eventCode,
        parcel.checkpoint.description,
      ],
    );
    return row.id;
  }

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
   * exist, with each one's carrier code. Every write of a flush (checkpoints, summaries,
   * allocations) is to parcels it locked here first, so two flushes sharing a parcel run one after
   * the other from this point, and flushes cannot deadlock on each other's parcels or checkpoints.
   */
  async lockParcels(manager: EntityManager, ids: number[]): Promise<Map<number, string | null>> {
    if (ids.length === 0) return new Map();
    const rows: { id: number; carrier_code: string | null }[] = await manager.query(
      `SELECT id, carrier_code FROM ${TRACKING} WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.carrier_code]));
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
   * Inserts the checkpoints, ignoring those already recorded (the unique dedupe key), and moves
   * each parcel's summary forward by the ones inserted, in one statement; answers the positions
   * in `rows` of those inserted. The rows must be free of duplicates among themselves, in arrival
   * order, and of parcels this transaction has locked. Per parcel, the new checkpoints reduce to
   * deltaOf (of equal times the later arrival wins), and the UPDATE applies it without reading
   * the row first, as mergeSummary does (in a SET list every `t.` column is the value before the
   * update; GREATEST and LEAST ignore nulls). One array per column (unnest): PostgreSQL reads
   * them faster than one JSON document, and Node need not parse rows back to match them.
   * A checkpoint of a voided parcel is inserted flagged `after_void` and moves nothing (the
   * writer holds the parcel's row lock, as void does, so the flag is exact).
   */
  async recordCheckpoints(
    manager: EntityManager,
    rows: CheckpointRow[],
  ): Promise<{ at: number; afterVoid: boolean }[]> {
    if (rows.length === 0) return [];
    const inserted: { n: number; after_void: boolean }[] = await manager.query(
      `WITH c AS (
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[],
                              $6::text[], $7::text[])
           WITH ORDINALITY AS c(tracking_id, event_time, status, carrier_code, event_code,
                                description, details, n)),
       inserted AS (
         INSERT INTO ${CHECKPOINT} (tracking_id, event_time, status, carrier_code, event_code, description, details, after_void)
         SELECT c.tracking_id, c.event_time, c.status, c.carrier_code, c.event_code, c.description,
                c.details, t.voided_at IS NOT NULL
           FROM c JOIN ${TRACKING} t ON t.id = c.tracking_id
         ON CONFLICT DO NOTHING
         RETURNING tracking_id, event_time, carrier_code, event_code, details, after_void),
       fresh AS (
         SELECT c.*, i.after_void FROM c JOIN inserted i
             ON i.tracking_id = c.tracking_id AND i.event_time = c.event_time
            AND i.carrier_code = c.carrier_code AND i.event_code = c.event_code
            AND i.details IS NOT DISTINCT FROM c.details),
       delta AS (
         SELECT tracking_id AS id,
                (array_agg(event_time ORDER BY event_time DESC, n DESC))[1] AS latest_time,
                (array_agg(status ORDER BY event_time DESC, n DESC))[1] AS latest_status,
                max(event_time) FILTER (WHERE carrier_code <> $8) AS last_carrier_time,
                min(event_time) FILTER (WHERE status = $9) AS first_transit_time,
                max(event_time) FILTER (WHERE status = ANY($10::text[])) AS last_delivery_time
           FROM fresh WHERE NOT after_void GROUP BY tracking_id),
       summary AS (
         UPDATE ${TRACKING} t
            SET status = CASE WHEN d.latest_time >= t.status_at THEN d.latest_status ELSE t.status END,
                status_at = GREATEST(t.status_at, d.latest_time),
                last_event_at = GREATEST(t.last_event_at, d.last_carrier_time),
                outbound_time = LEAST(t.outbound_time, d.first_transit_time),
                delivered_time = GREATEST(t.delivered_time, d.last_delivery_time)
           FROM delta d WHERE t.id = d.id)
       SELECT n::int AS n, after_void FROM fresh`,
      [
        rows.map((r) => r.trackingId),
        rows.map((r) => r.eventTime.toISOString()),
        rows.map((r) => r.status),
        rows.map((r) => r.carrierCode),
        rows.map((r) => r.eventCode),
        rows.map((r) => r.description),
        rows.map((r) => r.details),
        CONSIGN_CARRIER,
        CheckpointStatus.InTransit,
        DELIVERY_STATUSES,
      ],
    );
    return inserted.map((r) => ({ at: r.n - 1, afterVoid: r.after_void }));
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
