import { Injectable } from '@nestjs/common';
import { Sql } from '@consign/database';
import { SandboxParcel } from './sandbox-events';
import { SandboxScenario } from './sandbox-script';

const PARCEL = '"carrier_sandbox"."sandbox_parcel"';

interface ParcelRecord {
  id: number;
  carrier_code: string;
  tracking_number: string | null;
  by_tracking_number: boolean;
  scenario: SandboxScenario;
  step: number;
  next_at: Date;
}

/** Where a parcel's scenario goes after a published step. */
export interface ParcelProgress {
  id: number;
  step: number;
  next_at: Date;
  done: boolean;
  /** Allocated by the step just published, if it allocated one. */
  tracking_number: string | null;
}

/**
 * SQL of the sandbox-parcel aggregate: a parcel the sandbox is moving through its scenario (its
 * id is the label or shipment parcel id), claimed by a runner for a lease while it publishes.
 */
@Injectable()
export class SandboxParcelRepository {
  /** A label's parcel: its tracking number is allocated by the scenario. Once per id. */
  async insertLabel(
    sql: Sql,
    parcel: { id: number; carrier: string; scenario: SandboxScenario; nextAt: Date },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO ${PARCEL} (id, carrier_code, tracking_number, scenario, next_at)
       VALUES ($1, $2, NULL, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [parcel.id, parcel.carrier, parcel.scenario, parcel.nextAt],
    );
  }

  /** A shipment's parcel, reported by its known tracking number. Once per id. */
  async insertShipment(
    sql: Sql,
    parcel: {
      id: number;
      carrier: string;
      trackingNumber: string;
      scenario: SandboxScenario;
      nextAt: Date;
    },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO ${PARCEL} (id, carrier_code, tracking_number, by_tracking_number, scenario, next_at)
       VALUES ($1, $2, $3, true, $4, $5) ON CONFLICT (id) DO NOTHING`,
      [parcel.id, parcel.carrier, parcel.trackingNumber, parcel.scenario, parcel.nextAt],
    );
  }

  async finish(sql: Sql, id: number): Promise<void> {
    await sql.query(`UPDATE ${PARCEL} SET done = true WHERE id = $1`, [id]);
  }

  /**
   * When the earliest parcel still played can next be claimed: its step's time, or its lease's end
   * when that is later; null when none is played.
   */
  async nextDueAt(sql: Sql): Promise<Date | null> {
    const [row] = (await sql.query(
      `SELECT min(greatest(next_at, locked_until)) AS due FROM ${PARCEL} WHERE NOT done`,
    )) as { due: Date | string | null }[];
    return row?.due == null ? null : new Date(row.due);
  }

  /**
   * Claims up to `limit` parcels whose next step is due at `now` and that no live lease holds
   * (FOR UPDATE SKIP LOCKED), leasing them until `leaseUntil`; by due time, then id.
   */
  async claim(sql: Sql, now: Date, leaseUntil: Date, limit: number): Promise<SandboxParcel[]> {
    const rows: ParcelRecord[] = await sql.query(
      `WITH due AS (
         SELECT id FROM ${PARCEL}
          WHERE NOT done AND next_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
          ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE ${PARCEL} p SET locked_until = $2 FROM due WHERE p.id = due.id
         RETURNING p.id, p.carrier_code, p.tracking_number, p.by_tracking_number, p.scenario,
           p.step, p.next_at)
       SELECT * FROM claimed ORDER BY next_at, id`,
      [now, leaseUntil, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      carrierCode: r.carrier_code,
      trackingNumber: r.tracking_number,
      byTrackingNumber: r.by_tracking_number,
      scenario: r.scenario,
      step: r.step,
      nextAt: r.next_at,
    }));
  }

  /** Moves the parcels on and releases their leases, in one statement. */
  async advance(sql: Sql, progress: ParcelProgress[]): Promise<void> {
    await sql.query(
      `UPDATE ${PARCEL} p
          SET step = a.step, next_at = a.next_at, done = a.done, locked_until = NULL,
              tracking_number = COALESCE(p.tracking_number, a.tracking_number)
         FROM json_to_recordset($1::json) AS a(id bigint, step int, next_at timestamptz,
           done boolean, tracking_number text)
        WHERE p.id = a.id`,
      [JSON.stringify(progress)],
    );
  }
}
