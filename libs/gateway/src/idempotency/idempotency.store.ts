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
 * Groups of claims and answers: up to two statements in the database at once, each taking up to
 * 100 claims and answers that arrived while the others ran (or in the same turn of the event
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

/** What a group statement writes: claims of keys and requests' answers, together. */
type KeyWrite = { claim: IdempotentRequest } | { complete: CompletedKey };

/**
 * Claims keys: $1-$5 the keys' merchants, keys, fingerprints, new command ids and lock tokens;
 * $6 the hold's end, $7 now, $8 the expiry of a new record.
 */
const claimSql = `INSERT INTO "gateway"."idempotency_key" AS k (merchant_id, idempotency_key,
    fingerprint, command_id, state, lock_token, locked_until, created_at, expires_at)
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
  RETURNING merchant_id, idempotency_key, command_id`;

/**
 * Records answers, each only where its request still holds the key: from parameter $n on, the
 * keys' merchants, keys, lock tokens, statuses and bodies.
 */
function completeSql(n: number): string {
  return `UPDATE "gateway"."idempotency_key" AS k SET state = 'completed',
    response_status = v.status, response_body = v.body, lock_token = NULL, locked_until = NULL
  FROM unnest($${n}::bigint[], $${n + 1}::varchar[], $${n + 2}::uuid[], $${n + 3}::smallint[],
    $${n + 4}::text[]) AS v(merchant_id, idempotency_key, lock_token, status, body)
  WHERE k.merchant_id = v.merchant_id AND k.idempotency_key = v.idempotency_key
    AND k.lock_token = v.lock_token`;
}

/** A merchant's key, as one string. */
function keyId(key: IdempotentRequest): string {
  return `${key.merchantId} ${key.key}`;
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
 * Claims of keys and completed answers are written in groups (MicroBatcher), both kinds in the
 * same statement: what arrives while a group's statement runs goes into the next one, so under
 * concurrent keyed requests a key costs about one statement (its claim riding with another
 * request's answer, docs/benchmarks.md), and a lone request waits for nothing but its own
 * statement. Each request is still answered only after its own row is written.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private stopSweeping?: () => Promise<void>;
  now: () => number = Date.now;
  private readonly writes = new MicroBatcher<KeyWrite, HeldKey | undefined>(
    (writes) => this.writeGroup(writes),
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
      const [held] = await this.writes.submit([{ claim: request }]);
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
   * A group of claims and answers. Each answer is written where its request still holds the key;
   * each key that is new, expired, or free again for the same request is held (its entry), any
   * other is left as it is (undefined). A key claimed twice in the group, or claimed while its
   * answer is written, goes into a second statement, where it meets the row the first one left.
   */
  private async writeGroup(writes: KeyWrite[]): Promise<(HeldKey | undefined)[]> {
    const results = new Array<HeldKey | undefined>(writes.length);
    let completing: CompletedKey[] = [];
    let left: { request: IdempotentRequest; index: number }[] = [];
    writes.forEach((write, index) => {
      if ('complete' in write) completing.push(write.complete);
      else left.push({ request: write.claim, index });
    });
    while (left.length > 0 || completing.length > 0) {
      const busy = new Set(completing.map(({ held }) => keyId(held)));
      const group: typeof left = [];
      const later: typeof left = [];
      for (const entry of left) {
        const id = keyId(entry.request);
        (busy.has(id) ? later : group).push(entry);
        busy.add(id);
      }
      const taken = await this.writeStatement(
        group.map(({ request }) => request),
        completing,
      );
      group.forEach(({ index }, i) => (results[index] = taken[i]));
      completing = [];
      left = later;
    }
    return results;
  }

  /**
   * One statement: an `INSERT … SELECT FROM unnest(…) ON CONFLICT` of the claims and an
   * `UPDATE … FROM unnest(…)` of the answers (as two parts of one WITH when there are both; no key
   * is in both). Resolves with each claim's held key, or undefined where the key stays as it was.
   */
  private async writeStatement(
    requests: IdempotentRequest[],
    completed: CompletedKey[],
  ): Promise<(HeldKey | undefined)[]> {
    const now = this.now();
    const deadline = now + this.config.BUS_TIMEOUT_MS;
    const held: HeldKey[] = requests.map((request) => ({
      ...request,
      commandId: randomUUID(),
      token: randomUUID(),
      deadline,
    }));
    const claimParameters = [
      held.map((key) => key.merchantId),
      held.map((key) => key.key),
      held.map((key) => key.fingerprint),
      held.map((key) => key.commandId),
      held.map((key) => key.token),
      new Date(deadline + IDEMPOTENCY_LOCK_GRACE_MS),
      new Date(now),
      new Date(now + IDEMPOTENCY_KEY_TTL_MS),
    ];
    const completeParameters = [
      completed.map(({ held: key }) => key.merchantId),
      completed.map(({ held: key }) => key.key),
      completed.map(({ held: key }) => key.token),
      completed.map(({ status }) => status),
      completed.map(({ body }) => body),
    ];
    if (held.length === 0) {
      await this.dataSource.query(completeSql(1), completeParameters);
      return [];
    }
    const rows: { merchant_id: string; idempotency_key: string; command_id: string }[] =
      completed.length === 0
        ? await this.dataSource.query(claimSql, claimParameters)
        : await this.dataSource.query(
            `WITH completed AS (${completeSql(claimParameters.length + 1)}), claimed AS (${claimSql})
             SELECT merchant_id, idempotency_key, command_id FROM claimed`,
            [...claimParameters, ...completeParameters],
          );
    const taken = new Map(rows.map((row) => [`${row.merchant_id} ${row.idempotency_key}`, row]));
    return held.map((key) => {
      const row = taken.get(keyId(key));
      return row === undefined ? undefined : { ...key, commandId: row.command_id };
    });
  }

  /** Records how the request that holds the key ended (only if it still holds it). */
  async finish(held: HeldKey, finish: Finish): Promise<void> {
    const where = `merchant_id = $1 AND idempotency_key = $2 AND lock_token = $3`;
    const keys = [held.merchantId, held.key, held.token];
    switch (finish.kind) {
      case 'completed':
        await this.writes.submit([
          { complete: { held, status: finish.status, body: finish.body } },
        ]);
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
