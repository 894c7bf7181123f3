import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig, MicroBatcher, MicroBatcherOptions, runPeriodically } from '@consign/platform';
import { gatewayDatabase } from '../auth/gateway.database';

/** How long a key is remembered after its first request (Stripe: 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How much longer than the command's deadline a request holds its key: the request ends (answer
 * or 504) by the deadline, so the hold only matters when the gateway process died mid-request.
 */
export const IDEMPOTENCY_LOCK_GRACE_MS = 2000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Groups of claims and of answers: up to two statements of each in the database at once, each
 * taking up to 100 requests that arrived while the others ran (or in the same turn of the event
 * loop).
 */
const GROUP_OPTIONS: MicroBatcherOptions = { maxItems: 100, maxDelayMs: 0, maxConcurrent: 2 };

/** Whom a key belongs to and what it was first used for. */
export interface IdempotentRequest {
  merchantId: number;
  key: string;
  fingerprint: string;
}

/** A request that holds its key: it runs its command and then finishes the record. */
export interface HeldKey extends IdempotentRequest {
  commandId: string;
  token: string;
  /** The command's deadline (epoch ms); the key is held a grace beyond it. */
  deadline: number;
}

export type ClaimOutcome =
  | { kind: 'held'; held: HeldKey }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** What a finished request leaves in its record. */
export type Finish =
  | { kind: 'completed'; status: number; body: string }
  /** No effect, nothing to remember: the key may be used afresh (a 400). */
  | { kind: 'forgotten' }
  /** The outcome is unknown (5xx): a retry re-sends the same command id, which the service dedups. */
  | { kind: 'released' };

/** The answer a finished request's status calls for (see docs/operations.md). */
export function finishOf(status: number, body: unknown): Finish {
  if (status >= 500 || typeof body !== 'string') return { kind: 'released' };
  if (status === 400) return { kind: 'forgotten' };
  return { kind: 'completed', status, body };
}

/** A request's answer to record on the key it holds. */
interface CompletedKey {
  held: HeldKey;
  status: number;
  body: string;
}

interface Row {
  fingerprint: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: string | null;
}

/**
 * The gateway's Idempotency-Key records (schema `gateway`, table `idempotency_key`): per merchant
 * and key, the request's fingerprint, the command id it was given, whether a request holds it
 * (in flight, until `locked_until`) or its answer (completed), and when it expires. Plain
 * autocommit statements, never a transaction: on the embedded database a transaction held open
 * across the bus request would stall every service.
 *
 * Claims of keys and completed answers are written in groups (MicroBatcher): what arrives while a
 * group's statement runs goes into the next one, so under concurrent keyed requests a key costs
 * less than two statements each (docs/benchmarks.md), and a lone request waits for nothing but
 * its own statement. Each request is still answered only after its own row is written.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private stopSweeping?: () => Promise<void>;
  now: () => number = Date.now;
  private readonly claims = new MicroBatcher<IdempotentRequest, HeldKey | undefined>(
    (requests) => this.claimGroup(requests),
    GROUP_OPTIONS,
  );
  private readonly completions = new MicroBatcher<CompletedKey, void>(
    (completed) => this.completeGroup(completed),
    GROUP_OPTIONS,
  );

  constructor(
    @Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /**
   * Takes the key for this request when it is new, expired, or held by nobody any more (a request
   * that ended in 5xx, or a gateway that died holding it) for the same request; otherwise says
   * why not. One statement (shared with concurrent claims) in the common case: a new key.
   */
  async claim(request: IdempotentRequest): Promise<ClaimOutcome> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const [held] = await this.claims.submit([request]);
      if (held) return { kind: 'held', held };
      const found: Row[] = await this.dataSource.query(
        `SELECT fingerprint, state, response_status, response_body FROM "gateway"."idempotency_key"
         WHERE merchant_id = $1 AND idempotency_key = $2`,
        [request.merchantId, request.key],
      );
      const row = found[0];
      // Gone between the two statements (swept): claim again.
      if (!row) continue;
      if (row.fingerprint !== request.fingerprint) return { kind: 'mismatch' };
      if (row.state === 'completed' && row.response_status !== null && row.response_body !== null)
        return { kind: 'replay', status: row.response_status, body: row.response_body };
      return { kind: 'in_flight' };
    }
    return { kind: 'in_flight' };
  }

  /**
   * One INSERT … ON CONFLICT for a group of claims: each key that is new, expired, or free again
   * for the same request is held (its entry), any other is left as it is (undefined). A key
   * claimed twice in the group goes into a second statement, where it meets the first claim's row.
   */
  private async claimGroup(requests: IdempotentRequest[]): Promise<(HeldKey | undefined)[]> {
    const results = new Array<HeldKey | undefined>(requests.length);
    let left = requests.map((request, index) => ({ request, index }));
    while (left.length > 0) {
      const group: typeof left = [];
      const later: typeof left = [];
      const seen = new Set<string>();
      for (const entry of left) {
        const id = `${entry.request.merchantId} ${entry.request.key}`;
        (seen.has(id) ? later : group).push(entry);
        seen.add(id);
      }
      const now = this.now();
      const deadline = now + this.config.BUS_TIMEOUT_MS;
      const held: HeldKey[] = group.map(({ request }) => ({
        ...request,
        commandId: randomUUID(),
        token: randomUUID(),
        deadline,
      }));
      const rows: { merchant_id: string; idempotency_key: string; command_id: string }[] =
        await this.dataSource.query(
          `INSERT INTO "gateway"."idempotency_key" AS k (merchant_id, idempotency_key, fingerprint,
             command_id, state, lock_token, locked_until, created_at, expires_at)
           SELECT v.merchant_id, v.idempotency_key, v.fingerprint, v.command_id, 'in_flight',
             v.lock_token, $6, $7, $8
           FROM unnest($1::bigint[], $2::varchar[], $3::char(64)[], $4::uuid[], $5::uuid[])
             AS v(merchant_id, idempotency_key, fingerprint, command_id, lock_token)
           ON CONFLICT (merchant_id, idempotency_key) DO UPDATE SET
             fingerprint = EXCLUDED.fingerprint,
             command_id = CASE WHEN k.expires_at <= $7 THEN EXCLUDED.command_id ELSE k.command_id END,
             state = 'in_flight', lock_token = EXCLUDED.lock_token, locked_until = EXCLUDED.locked_until,
             response_status = NULL, response_body = NULL,
             created_at = CASE WHEN k.expires_at <= $7 THEN EXCLUDED.created_at ELSE k.created_at END,
             expires_at = CASE WHEN k.expires_at <= $7 THEN EXCLUDED.expires_at ELSE k.expires_at END
           WHERE k.expires_at <= $7
              OR (k.state = 'in_flight' AND k.locked_until <= $7 AND k.fingerprint = EXCLUDED.fingerprint)
           RETURNING merchant_id, idempotency_key, command_id`,
          [
            held.map((key) => key.merchantId),
            held.map((key) => key.key),
            held.map((key) => key.fingerprint),
            held.map((key) => key.commandId),
            held.map((key) => key.token),
            new Date(deadline + IDEMPOTENCY_LOCK_GRACE_MS),
            new Date(now),
            new Date(now + IDEMPOTENCY_KEY_TTL_MS),
          ],
        );
      const taken = new Map(
        rows.map((row) => [`${row.merchant_id} ${row.idempotency_key}`, row.command_id]),
      );
      group.forEach(({ index }, i) => {
        const commandId = taken.get(`${held[i].merchantId} ${held[i].key}`);
        results[index] = commandId === undefined ? undefined : { ...held[i], commandId };
      });
      left = later;
    }
    return results;
  }

  /** Records how the request that holds the key ended (only if it still holds it). */
  async finish(held: HeldKey, finish: Finish): Promise<void> {
    const where = `merchant_id = $1 AND idempotency_key = $2 AND lock_token = $3`;
    const keys = [held.merchantId, held.key, held.token];
    switch (finish.kind) {
      case 'completed':
        await this.completions.submit([{ held, status: finish.status, body: finish.body }]);
        return;
      case 'forgotten':
        await this.dataSource.query(`DELETE FROM "gateway"."idempotency_key" WHERE ${where}`, keys);
        return;
      case 'released':
        await this.dataSource.query(
          `UPDATE "gateway"."idempotency_key" SET lock_token = NULL, locked_until = $4 WHERE ${where}`,
          [...keys, new Date(this.now())],
        );
        return;
    }
  }

  /** One UPDATE for a group of answers, each written only where its request still holds the key. */
  private async completeGroup(completed: CompletedKey[]): Promise<void[]> {
    await this.dataSource.query(
      `UPDATE "gateway"."idempotency_key" AS k SET state = 'completed',
         response_status = v.status, response_body = v.body, lock_token = NULL, locked_until = NULL
       FROM unnest($1::bigint[], $2::varchar[], $3::uuid[], $4::smallint[], $5::text[])
         AS v(merchant_id, idempotency_key, lock_token, status, body)
       WHERE k.merchant_id = v.merchant_id AND k.idempotency_key = v.idempotency_key
         AND k.lock_token = v.lock_token`,
      [
        completed.map(({ held }) => held.merchantId),
        completed.map(({ held }) => held.key),
        completed.map(({ held }) => held.token),
        completed.map(({ status }) => status),
        completed.map(({ body }) => body),
      ],
    );
    return completed.map(() => undefined);
  }

  /** Deletes expired records; returns how many. */
  async sweep(): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM "gateway"."idempotency_key" WHERE expires_at <= $1 RETURNING 1)
       SELECT 1 FROM gone`,
      [new Date(this.now())],
    );
    return rows.length;
  }

  onApplicationBootstrap(): void {
    this.stopSweeping = runPeriodically(
      () => this.sweep(),
      SWEEP_INTERVAL_MS,
      (error: unknown) =>
        this.logger.warn(`sweeping expired idempotency keys failed: ${String(error)}`),
    );
  }

  onApplicationShutdown(): void {
    void this.stopSweeping?.();
  }
}
