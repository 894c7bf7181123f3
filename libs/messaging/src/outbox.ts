import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { DataSource, EntityManager } from 'typeorm';
import { SOLE_WRITER_POLL_MS, afterCommit } from '@consign/database';
import { CORRELATION_HEADER, EventEnvelope, EventPayload, EventTopic } from '@consign/contracts';
import {
  currentCorrelationId,
  isSaneCorrelationId,
  metrics,
  outboxHealth,
  TraceCarrier,
  currentTraceCarrier,
  runInStoredTrace,
  runOutsideTrace,
} from '@consign/observability';
import { busClientConnections } from '@consign/bus';

export interface OutboxOptions {
  /**
   * How often pending events are looked for when nothing nudges the relay: 1 s by default, 30 s
   * for a sole writer.
   */
  pollIntervalMs?: number;
  /**
   * No other process writes this outbox table while this one runs (DatabaseHost.exclusive: the
   * embedded database). Every event to relay is then one this process committed, which nudges the
   * relay, or one whose publish failed, which the relay takes again when its backoff ends; so it
   * polls only as a safety net (every 30 s), and at start it frees the leases a process that died
   * here left, instead of waiting for them to expire.
   */
  soleWriter?: boolean;
  batchSize?: number;
  /** Message keys (aggregates) published at the same time; each key's events in order. */
  publishConcurrency?: number;
}

interface ClaimedRow {
  id: number;
  topic: string;
  message_key: string;
  envelope: unknown;
  headers: Record<string, string>;
  /** The trace of the span that wrote the event: the relay publishes it in that trace. */
  trace_context: TraceCarrier | null;
  attempts: number;
  /** A dead letter's original bytes: published as they are, instead of the JSON envelope. */
  raw_value: Buffer | null;
}

/** One event for `Outbox.addAll`: its topic and a payload of that topic. */
export type OutboxEntry = {
  [K in EventTopic]: {
    topic: K;
    merchantId: number;
    aggregateId: string | number;
    payload: EventPayload<K>;
  };
}[EventTopic];

/**
 * The started relays of each outbox table, by schema: a commit that wrote to the table nudges
 * them.
 */
const relays = new Map<string, Set<() => void>>();

/**
 * Notes that this transaction wrote to the outbox table of `schema` (Outbox.addAll; parkDeadLetters
 * for `<topic>.dlt`): the relays of that table are nudged once it commits (afterCommit), so no use
 * case has to. Answers false when the manager is in no transaction: the rows are committed
 * already (Outbox.addAll then nudges its relay at once; parked dead letters wait for the poll).
 */
export function noteOutboxWrite(manager: EntityManager, schema: string): boolean {
  return afterCommit(manager, `outbox:${schema}`, () => {
    for (const nudge of relays.get(schema) ?? []) nudge();
  });
}

const LEASE_SECONDS = 30;
/** A retry is looked for this long after its backoff ends, so that the claim sees it due. */
const RETRY_MARGIN_MS = 100;
/** Events per INSERT statement (6 parameters each, well inside PostgreSQL's 65,535). */
const OUTBOX_INSERT_ROWS = 1_000;
const MAX_BACKOFF_SECONDS = 60;

/**
 * The transactional outbox of one service. `add` writes an event with the caller's transaction;
 * the relay publishes committed events in id order, at least once (consumers dedupe with their
 * inbox), and never inside a database transaction. It starts as soon as a transaction that added
 * events commits (afterCommit, from @consign/database), and polls for the rest (another
 * replica's rows). Rows are claimed with a lease, so several replicas share the work; a
 * failed publish is retried with exponential backoff, the relay looking again when it ends. A sole
 * writer (the embedded database) has no other replica's rows to look for: see `soleWriter`.
 */
export class Outbox {
  private readonly logger: Logger;
  private readonly table: string;
  private readonly schema: string;
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = true;
  /** When the earliest of the rows this relay gave back with a backoff is due again (ms). */
  private retryDueAt = Infinity;
  /** A sole writer's first drain frees the leases of a process that died (start). */
  private freeLeases = false;
  private untrackBacklog?: () => void;
  private untrackAge?: () => void;
  /** This relay's entry among the started ones (noteOutboxWrite). */
  private readonly nudgeOnCommit = () => this.nudge();

  constructor(
    private readonly dataSource: DataSource,
    private readonly client: ClientProxy,
    schema: string,
    private readonly options: OutboxOptions = {},
  ) {
    this.logger = new Logger(`Outbox:${schema}`);
    this.table = `"${schema}"."outbox_event"`;
    this.schema = schema;
  }

  /** Unrelayed events (the outbox_backlog gauge): a count on the partial pending index. */
  async backlog(): Promise<number> {
    const rows: { count: string }[] = await this.dataSource.query(
      `SELECT count(*) AS count FROM ${this.table} WHERE published_at IS NULL`,
    );
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * Seconds since the oldest unrelayed event was written (null when none waits): readiness and
   * the outbox_oldest_pending_age_seconds gauge. The partial pending index finds it.
   */
  async oldestPendingAgeSeconds(): Promise<number | null> {
    const rows: { age: number | string }[] = await this.dataSource.query(
      `SELECT extract(epoch FROM now() - created_at)::float8 AS age FROM ${this.table}
       WHERE published_at IS NULL ORDER BY id LIMIT 1`,
    );
    return rows.length ? Math.max(0, Number(rows[0].age)) : null;
  }

  async add<K extends EventTopic>(
    manager: EntityManager,
    topic: K,
    event: {
      merchantId: number;
      aggregateId: string | number;
      payload: EventPayload<K>;
      /** Default: the correlation id of the request or message being handled. */
      correlationId?: string;
    },
  ): Promise<void> {
    await this.addAll(manager, [{ topic, ...event } as OutboxEntry], event.correlationId);
  }

  /**
   * Adds events of any topics with one multi-row INSERT per 1,000 events, in the order given (the
   * relay publishes them in that order): a change that announces several events writes them in
   * one statement.
   */
  async addAll(
    manager: EntityManager,
    events: OutboxEntry[],
    correlationId: string | undefined = currentCorrelationId(),
  ): Promise<void> {
    if (events.length === 0) return;
    const inTransaction = noteOutboxWrite(manager, this.schema);
    // The relay copies these onto the Kafka message: the event's consumers log the id of the
    // request that caused it.
    const headers = isSaneCorrelationId(correlationId)
      ? { [CORRELATION_HEADER]: correlationId }
      : {};
    const headersJson = JSON.stringify(headers);
    const traceContext = currentTraceCarrier();
    const traceJson = traceContext ? JSON.stringify(traceContext) : null;
    const occurredAt = new Date().toISOString();
    for (let start = 0; start < events.length; start += OUTBOX_INSERT_ROWS) {
      const rows: string[] = [];
      const values: unknown[] = [];
      for (const event of events.slice(start, start + OUTBOX_INSERT_ROWS)) {
        const envelope: EventEnvelope<unknown> = {
          event_id: randomUUID(),
          merchant_id: event.merchantId,
          aggregate_id: String(event.aggregateId),
          occurred_at: occurredAt,
          payload: event.payload,
        };
        const p = values.length;
        rows.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6})`);
        values.push(
          envelope.event_id,
          event.topic,
          envelope.aggregate_id,
          JSON.stringify(envelope),
          headersJson,
          traceJson,
        );
      }
      // A plain statement, not the entity's insert: TypeORM's query builder, and the RETURNING of
      // every default it adds, cost more app CPU than the write itself (docs/benchmarks.md).
      await manager.query(
        `INSERT INTO ${this.table} (event_id, topic, message_key, envelope, headers, trace_context)
         VALUES ${rows.join(', ')}`,
        values,
      );
    }
    if (!inTransaction) this.nudge();
  }

  /** Adds several events of one topic with one multi-row INSERT (for batch writers). */
  async addMany<K extends EventTopic>(
    manager: EntityManager,
    topic: K,
    events: { merchantId: number; aggregateId: string | number; payload: EventPayload<K> }[],
  ): Promise<void> {
    await this.addAll(
      manager,
      events.map((event) => ({ topic, ...event }) as OutboxEntry),
    );
  }

  start(): void {
    this.stopped = false;
    const started = relays.get(this.schema);
    if (started) started.add(this.nudgeOnCommit);
    else relays.set(this.schema, new Set([this.nudgeOnCommit]));
    this.untrackBacklog = metrics().trackOutboxBacklog(this.schema, () => this.backlog());
    this.untrackAge = outboxHealth.track(this.schema, () => this.oldestPendingAgeSeconds());
    this.freeLeases = this.options.soleWriter ?? false;
    // A first look at once (a flush right after start waits for it).
    if (this.draining) this.again = true;
    else this.look();
  }

  /**
   * Stops the relay after a last drain, so that events committed by the last handled messages
   * are published before the producer closes (what is left, e.g. on a broker outage, waits in the
   * table for the next start or another replica).
   */
  async stop(): Promise<void> {
    const wasRunning = !this.stopped;
    this.stopped = true;
    const started = relays.get(this.schema);
    if (started?.delete(this.nudgeOnCommit) && started.size === 0) relays.delete(this.schema);
    this.untrackBacklog?.();
    this.untrackBacklog = undefined;
    this.untrackAge?.();
    this.untrackAge = undefined;
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
    if (wasRunning)
      await this.drain().catch((error: unknown) =>
        this.logger.warn(`last relay before stopping failed: ${String(error)}`),
      );
  }

  /**
   * Publish now rather than at the next poll. The outbox calls it itself after every commit of a
   * transaction that added events (and after an add outside any transaction).
   */
  private nudge(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /**
   * Drains whatever is pending; resolves when nothing publishable is left and no drain of the
   * relay's own (one its timer started meanwhile) is still running (used by tests too).
   */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    await this.drain();
    while (this.draining) await this.draining;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.look(), delayMs);
    this.timer.unref();
  }

  /** One drain, then the next look scheduled: at once when nudged meanwhile, else nextLookInMs. */
  private look(): void {
    // The relay is nobody's work: a timer set from a request's nudge would otherwise run the
    // claim and every publish in that request's trace. Each event is published in its own.
    this.draining = runOutsideTrace(() => this.drain())
      .catch((error: unknown) => this.logger.error(`relay failed: ${String(error)}`))
      .finally(() => {
        this.draining = undefined;
        const again = this.again;
        this.again = false;
        this.schedule(again ? 0 : this.nextLookInMs());
      });
  }

  /** Until the next look when nothing nudges the relay: its poll, or sooner a retry's backoff. */
  private nextLookInMs(): number {
    const poll =
      this.options.pollIntervalMs ?? (this.options.soleWriter ? SOLE_WRITER_POLL_MS : 1000);
    return Math.min(poll, Math.max(0, this.retryDueAt - Date.now()) + RETRY_MARGIN_MS);
  }

  private async drain(): Promise<void> {
    // Not connected to the broker yet (since start-up): nothing to claim until it is; the relay
    // looks again at its next poll.
    if (busClientConnections.get(this.client)?.isConnected() === false) return;
    if (this.freeLeases) {
      // Held by nobody: only this process writes here, and it has claimed nothing yet.
      await this.dataSource.query(
        `UPDATE ${this.table} SET locked_until = NULL WHERE published_at IS NULL AND locked_until IS NOT NULL`,
      );
      this.freeLeases = false;
    }
    // The retries due by now are claimed below (or were by a drain since); a failure sets the next.
    if (this.retryDueAt <= Date.now()) this.retryDueAt = Infinity;
    const batchSize = this.options.batchSize ?? 100;
    for (;;) {
      const rows = await this.claim(batchSize);
      if (rows.length === 0) return;
      const { published, unpublished, error } = await this.publishByKey(rows);
      if (published.length) {
        await this.dataSource.query(
          `UPDATE ${this.table} SET published_at = now(), locked_until = NULL WHERE id = ANY($1)`,
          [published],
        );
      }
      if (unpublished.length) {
        await this.release(unpublished, error);
        return;
      }
      if (rows.length < batchSize) return;
    }
  }

  /**
   * Publishes claimed rows: one message key's (one aggregate's) one after another in id order, as
   * Kafka keeps them in one partition, and different keys' at the same time (at most
   * `publishConcurrency` keys), so that a burst does not wait for each event's consumers in turn
   * (in-process, `emit` resolves once every subscriber handled the event; a consumer can batch
   * the events it handles at the same time). After a failed publish no row is started: what was
   * not published is released, so no key's later row overtakes an earlier one.
   */
  private async publishByKey(
    rows: ClaimedRow[],
  ): Promise<{ published: number[]; unpublished: ClaimedRow[]; error?: unknown }> {
    const byKey = new Map<string, ClaimedRow[]>();
    for (const row of rows) {
      const queue = byKey.get(row.message_key);
      if (queue) queue.push(row);
      else byKey.set(row.message_key, [row]);
    }
    const queues = [...byKey.values()];
    const done = new Set<number>();
    let failure: { error: unknown } | undefined;
    let next = 0;
    const worker = async () => {
      while (!failure && next < queues.length) {
        for (const row of queues[next++]) {
          if (failure) return;
          try {
            await this.publish(row);
            done.add(row.id);
          } catch (error: unknown) {
            failure ??= { error };
            return;
          }
        }
      }
    };
    const workers = Math.min(queues.length, this.options.publishConcurrency ?? 64);
    await Promise.all(Array.from({ length: workers }, worker));
    return {
      published: rows.filter((row) => done.has(row.id)).map((row) => row.id),
      unpublished: rows.filter((row) => !done.has(row.id)),
      error: failure?.error,
    };
  }

  /**
   * One event on the bus, with the trace context stored with it as the `traceparent` and
   * `tracestate` headers, published inside that trace (kafkajs's instrumentation then starts its
   * producer span there and puts that span in the headers instead).
   */
  private publish(row: ClaimedRow): Promise<void> {
    const headers = row.trace_context ? { ...row.headers, ...row.trace_context } : row.headers;
    return runInStoredTrace(row.trace_context, () =>
      lastValueFrom(
        this.client.emit(row.topic, {
          key: row.message_key,
          value: row.raw_value ?? row.envelope,
          headers,
        }),
        { defaultValue: undefined },
      ),
    );
  }

  private async claim(limit: number): Promise<ClaimedRow[]> {
    // Wrapped in a CTE so the driver returns plain rows (a bare UPDATE … RETURNING comes back as
    // [rows, count] from TypeORM).
    const rows: ClaimedRow[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE ${this.table} SET locked_until = now() + interval '${LEASE_SECONDS} seconds', attempts = attempts + 1
         WHERE id IN (
           SELECT id FROM ${this.table}
           WHERE published_at IS NULL AND (locked_until IS NULL OR locked_until < now())
           ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, topic, message_key, envelope, headers, trace_context, attempts, raw_value)
       SELECT * FROM claimed`,
      [limit],
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Gives unpublished rows back with a backoff, so a broker outage is retried, never dropped. */
  private async release(rows: ClaimedRow[], error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `publishing ${rows[0].topic} failed (attempt ${rows[0].attempts}): ${message}`,
    );
    const backoff = Math.min(MAX_BACKOFF_SECONDS, 2 ** Math.min(rows[0].attempts, 6));
    await this.dataSource.query(
      `UPDATE ${this.table} SET locked_until = now() + make_interval(secs => $2), last_error = $3 WHERE id = ANY($1)`,
      [rows.map((r) => r.id), backoff, message.slice(0, 2000)],
    );
    // Read after the update: its now() (the statement's start) is no later.
    this.retryDueAt = Math.min(this.retryDueAt, Date.now() + backoff * 1000);
  }
}
