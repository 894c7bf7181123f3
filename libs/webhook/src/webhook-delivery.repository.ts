import { Injectable } from '@nestjs/common';
import {
  WebhookAttemptView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEventType,
} from '@consign/contracts';
import { Sql, deleteRows } from '@consign/database';

const ENDPOINT = '"webhooks"."webhook_endpoint"';
const DELIVERY = '"webhooks"."webhook_delivery"';
const ATTEMPT = '"webhooks"."webhook_attempt"';

/** A delivery claimed for an attempt, with what signing and sending it needs. */
export interface ClaimedDelivery {
  id: number;
  endpoint_id: number;
  webhook_id: string;
  event_type: WebhookEventType;
  sequence: number;
  event_time: Date;
  /** The resource, as JSON text (json column: its key order is kept). */
  data: string;
  attempts: number;
  first_attempt_at: Date | null;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** An event to queue for the endpoints subscribed to its type. */
export interface QueuedEvent {
  merchantId: number;
  type: WebhookEventType;
  /** Standard Webhooks `webhook-id`: one per event, the same for every endpoint and attempt. */
  webhookId: string;
  occurredAt: string;
  /** The resource, as the API returns it. */
  data: unknown;
}

/** What one attempt came to, as recorded. */
export interface AttemptRecord {
  deliveryId: number;
  attemptedAt: Date;
  status: number | null;
  durationMs: number;
  error: string | null;
  /** Delivered, failed for good, or pending until `nextAttemptAt`. */
  outcome: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
  firstAttemptAt: Date;
}

interface DeliveryRow {
  id: number;
  webhook_id: string;
  event_type: WebhookEventType;
  sequence: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_response_code: number | null;
  last_duration_ms: number | null;
  next_attempt_at: Date;
  created_at: Date;
  delivered_at: Date | null;
  attempt_list:
    | {
        attempted_at: string;
        response_code: number | null;
        duration_ms: number;
        error: string | null;
      }[]
    | null;
}

/** SQL of webhook-dispatcher's delivery queue. */
@Injectable()
export class WebhookDeliveryRepository {
  /**
   * Queues events, in the order given, for every enabled endpoint of their merchant subscribed to
   * their type (in the caller's transaction, with the events' inbox rows), in one statement: each
   * endpoint's counter moves once by the number of its events, and its deliveries take the
   * numbers in between, in event order, so an endpoint's sequence has neither gaps nor repeats.
   * The update locks the endpoints: a concurrent transaction queueing for one waits for this one's
   * commit and numbers after it. Returns how many deliveries were queued.
   */
  async enqueue(sql: Sql, events: QueuedEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const rows = (await sql.query(
      `WITH event AS (
         SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::text[])
           WITH ORDINALITY AS event(merchant_id, event_type, webhook_id, event_time, data, ord)),
       target AS (
         SELECT e.id AS endpoint_id, event.*,
           row_number() OVER (PARTITION BY e.id ORDER BY event.ord) AS n
         FROM event JOIN ${ENDPOINT} e ON e.merchant_id = event.merchant_id
           AND e.status = 'enabled' AND event.event_type = ANY(e.event_types)),
       counted AS (SELECT endpoint_id, count(*) AS c FROM target GROUP BY endpoint_id),
       endpoint AS (
         UPDATE ${ENDPOINT} e SET next_sequence = e.next_sequence + counted.c
         FROM counted WHERE e.id = counted.endpoint_id AND e.status = 'enabled'
         RETURNING e.id, e.next_sequence - counted.c AS base)
       INSERT INTO ${DELIVERY} (endpoint_id, merchant_id, webhook_id, event_type, sequence, event_time, data)
       SELECT t.endpoint_id, t.merchant_id, t.webhook_id, t.event_type, endpoint.base + t.n,
         t.event_time, t.data::json
       FROM target t JOIN endpoint ON endpoint.id = t.endpoint_id
       ORDER BY t.endpoint_id, t.n
       ON CONFLICT ON CONSTRAINT uq_webhook_delivery_endpoint_id_webhook_id DO NOTHING
       RETURNING id`,
      [
        events.map((event) => event.merchantId),
        events.map((event) => event.type),
        events.map((event) => event.webhookId),
        events.map((event) => event.occurredAt),
        events.map((event) => JSON.stringify(event.data)),
      ],
    )) as { id: number }[];
    return rows.length;
  }

  /**
   * Takes up to `limit` due deliveries of enabled endpoints for one attempt. Claiming moves their
   * next attempt `leaseMs` ahead: should this process die mid-attempt, they are due again then
   * (at least once), and other dispatchers skip them meanwhile.
   */
  async claim(sql: Sql, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return (await sql.query(
      `WITH due AS (
         SELECT d.id FROM ${DELIVERY} d JOIN ${ENDPOINT} e ON e.id = d.endpoint_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND e.status = 'enabled'
         ORDER BY d.next_attempt_at, d.id LIMIT $1 FOR UPDATE OF d SKIP LOCKED),
       claimed AS (
         UPDATE ${DELIVERY} d SET next_attempt_at = now() + make_interval(secs => $2)
         FROM due WHERE d.id = due.id
         RETURNING d.id, d.endpoint_id, d.webhook_id, d.event_type, d.sequence, d.event_time,
           d.data::text AS data, d.attempts, d.first_attempt_at)
       SELECT c.*, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at
       FROM claimed c JOIN ${ENDPOINT} e ON e.id = c.endpoint_id ORDER BY c.id`,
      [limit, leaseMs / 1000],
    )) as ClaimedDelivery[];
  }

  /**
   * When the earliest pending delivery of an enabled endpoint falls due (a claimed one's lease
   * end included: a claim moves its next_attempt_at), or null when none is pending.
   */
  async nextDueAt(sql: Sql): Promise<Date | null> {
    const [row] = (await sql.query(
      `SELECT min(d.next_attempt_at) AS due
       FROM ${DELIVERY} d JOIN ${ENDPOINT} e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND e.status = 'enabled'`,
    )) as { due: Date | string | null }[];
    return row?.due == null ? null : new Date(row.due);
  }

  /** Records a batch of attempts; endpoints whose delivery failed for good are disabled. */
  async record(sql: Sql, attempts: AttemptRecord[]): Promise<void> {
    // The deliveries still there: an endpoint deleted while its attempts were in flight took
    // its deliveries with it, and their attempts are not recorded (the others' still are).
    const updated = (await sql.query(
      `WITH updated AS (
         UPDATE ${DELIVERY} d SET status = u.outcome, attempts = d.attempts + 1,
           next_attempt_at = coalesce(u.next_at, d.next_attempt_at), last_response_code = u.code,
           last_duration_ms = u.duration, first_attempt_at = coalesce(d.first_attempt_at, u.first_at),
           delivered_at = CASE WHEN u.outcome = 'delivered' THEN u.at ELSE d.delivered_at END
         FROM unnest($1::bigint[], $2::varchar[], $3::timestamptz[], $4::int[], $5::int[],
           $6::timestamptz[], $7::timestamptz[]) AS u(id, outcome, next_at, code, duration, first_at, at)
         WHERE d.id = u.id
         RETURNING d.id)
       SELECT id FROM updated`,
      [
        attempts.map((a) => a.deliveryId),
        attempts.map((a) => a.outcome),
        attempts.map((a) => a.nextAttemptAt),
        attempts.map((a) => a.status),
        attempts.map((a) => a.durationMs),
        attempts.map((a) => a.firstAttemptAt),
        attempts.map((a) => a.attemptedAt),
      ],
    )) as { id: number | string }[];
    // Each updated delivery stays locked to this transaction's end: none of these can go now.
    const present = new Set(updated.map((row) => Number(row.id)));
    const recorded = attempts.filter((a) => present.has(Number(a.deliveryId)));
    if (recorded.length === 0) return;
    await sql.query(
      `INSERT INTO ${ATTEMPT} (delivery_id, attempted_at, response_code, duration_ms, error)
       SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::int[], $5::text[])`,
      [
        recorded.map((a) => a.deliveryId),
        recorded.map((a) => a.attemptedAt),
        recorded.map((a) => a.status),
        recorded.map((a) => a.durationMs),
        recorded.map((a) => a.error),
      ],
    );
    const gaveUp = recorded.filter((a) => a.outcome === WebhookDeliveryStatus.Failed);
    if (gaveUp.length)
      await sql.query(
        `UPDATE ${ENDPOINT} e SET status = 'disabled', updated_at = now(),
           disabled_reason = 'Disabled at ' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
             || ': delivery ' || d.id || ' (' || d.webhook_id || ') failed on every attempt of the retry schedule ('
             || d.attempts || ' attempts; last: ' || coalesce(d.last_response_code::text, 'no answer') || ').'
         FROM ${DELIVERY} d WHERE d.id = ANY($1::bigint[]) AND e.id = d.endpoint_id AND e.status = 'enabled'`,
        [gaveUp.map((a) => a.deliveryId)],
      );
  }

  async page(
    sql: Sql,
    endpointId: number,
    page: number,
    size: number,
  ): Promise<{ total: number; list: WebhookDeliveryView[] }> {
    const [{ total }] = (await sql.query(
      `SELECT count(*) AS total FROM ${DELIVERY} WHERE endpoint_id = $1`,
      [endpointId],
    )) as { total: number }[];
    const rows = (await sql.query(
      `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY} d WHERE d.endpoint_id = $1
       ORDER BY d.id DESC LIMIT $2 OFFSET $3`,
      [endpointId, size, (page - 1) * size],
    )) as DeliveryRow[];
    return { total, list: rows.map(toDeliveryView) };
  }

  /** Sends a delivery again now, with a fresh schedule; its endpoint is enabled again. */
  async retry(
    sql: Sql,
    endpointId: number,
    deliveryId: number,
  ): Promise<WebhookDeliveryView | undefined> {
    const updated = (await sql.query(
      `WITH again AS (
         UPDATE ${DELIVERY} SET status = 'pending', next_attempt_at = now(), first_attempt_at = NULL
         WHERE id = $1 AND endpoint_id = $2 RETURNING id)
       SELECT id FROM again`,
      [deliveryId, endpointId],
    )) as { id: number }[];
    if (!updated.length) return undefined;
    await sql.query(
      `UPDATE ${ENDPOINT} SET status = 'enabled', disabled_reason = NULL, updated_at = now()
       WHERE id = $1 AND status = 'disabled'`,
      [endpointId],
    );
    const rows = (await sql.query(`SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY} d WHERE d.id = $1`, [
      deliveryId,
    ])) as DeliveryRow[];
    return toDeliveryView(rows[0]);
  }

  /** The endpoint's id when it is the merchant's. */
  /**
   * Deletes up to `limit` deliveries created before `cutOff` that are no longer pending (delivered,
   * or failed for good), with their attempts; returns how many.
   */
  deleteFinished(sql: Sql, cutOff: Date, limit: number): Promise<number> {
    return deleteRows(
      sql,
      `DELETE FROM ${DELIVERY} WHERE id IN (
         SELECT id FROM ${DELIVERY} WHERE created_at < $1 AND status <> 'pending' LIMIT ${limit})`,
      [cutOff],
    );
  }

  async endpointOf(sql: Sql, merchantId: number, endpointId: number): Promise<number | undefined> {
    const rows = (await sql.query(`SELECT id FROM ${ENDPOINT} WHERE id = $1 AND merchant_id = $2`, [
      endpointId,
      merchantId,
    ])) as { id: number }[];
    return rows[0]?.id;
  }
}

const DELIVERY_COLUMNS = `d.id, d.webhook_id, d.event_type, d.sequence, d.status, d.attempts,
  d.last_response_code, d.last_duration_ms, d.next_attempt_at, d.created_at, d.delivered_at,
  (SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'response_code', a.response_code,
     'duration_ms', a.duration_ms, 'error', a.error) ORDER BY a.id DESC)
   FROM ${ATTEMPT} a WHERE a.delivery_id = d.id) AS attempt_list`;

function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  const pending = row.status === WebhookDeliveryStatus.Pending;
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_type: row.event_type,
    sequence: row.sequence,
    status: row.status,
    attempts: row.attempts,
    response_code: row.last_response_code,
    duration_ms: row.last_duration_ms,
    next_attempt_time: pending ? row.next_attempt_at.toISOString() : null,
    created_time: row.created_at.toISOString(),
    delivered_time: row.delivered_at ? row.delivered_at.toISOString() : null,
    attempt_list: (row.attempt_list ?? []).map((a): WebhookAttemptView => ({
      attempted_time: new Date(a.attempted_at).toISOString(),
      response_code: a.response_code,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  };
}
