import { Injectable } from '@nestjs/common';
import { WebhookEndpointStatus, WebhookEventType } from '@consign/contracts';
import { Sql } from '@consign/database';

const ENDPOINT = '"webhooks"."webhook_endpoint"';

/** A row of webhooks.webhook_endpoint, as the endpoint's views need it. */
export interface EndpointRow {
  id: number;
  url: string;
  event_types: WebhookEventType[];
  description: string | null;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  created_at: Date;
  secret: string;
  previous_secret_expires_at: Date | null;
}

const COLUMNS = `id, url, event_types, description, status, disabled_reason, created_at, secret,
  previous_secret_expires_at`;

/** SQL of the webhook-endpoint aggregate: a merchant's endpoints and their signing secrets. */
@Injectable()
export class WebhookEndpointRepository {
  /**
   * Registers the endpoint unless the merchant already has `limit` of them; undefined when it has.
   * In the caller's transaction, which first takes the merchant's endpoint lock (an advisory lock
   * held to its end): two creates at once would each count without the other's uncommitted row.
   */
  async insertWithinLimit(
    sql: Sql,
    endpoint: {
      merchantId: number;
      url: string;
      eventTypes: WebhookEventType[];
      description: string | null;
      secret: string;
    },
    limit: number,
  ): Promise<EndpointRow | undefined> {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `webhooks.endpoint:${endpoint.merchantId}`,
    ]);
    const [row] = (await sql.query(
      `INSERT INTO ${ENDPOINT} (merchant_id, url, event_types, description, secret)
       SELECT $1, $2, $3, $4, $5
       WHERE (SELECT count(*) FROM ${ENDPOINT} WHERE merchant_id = $1) < $6
       RETURNING ${COLUMNS}`,
      [
        endpoint.merchantId,
        endpoint.url,
        endpoint.eventTypes,
        endpoint.description,
        endpoint.secret,
        limit,
      ],
    )) as EndpointRow[];
    return row;
  }

  async list(sql: Sql, merchantId: number): Promise<EndpointRow[]> {
    return (await sql.query(
      `SELECT ${COLUMNS} FROM ${ENDPOINT} WHERE merchant_id = $1 ORDER BY id`,
      [merchantId],
    )) as EndpointRow[];
  }

  /** Removes the endpoint (its deliveries go with it); answers it as it was. */
  async delete(sql: Sql, merchantId: number, endpointId: number): Promise<EndpointRow | undefined> {
    const rows = (await sql.query(
      `WITH removed AS (DELETE FROM ${ENDPOINT} WHERE id = $1 AND merchant_id = $2 RETURNING ${COLUMNS})
       SELECT * FROM removed`,
      [endpointId, merchantId],
    )) as EndpointRow[];
    return rows[0];
  }

  /** Sets a new secret; the previous one keeps signing for `graceSeconds`. */
  async rotate(
    sql: Sql,
    merchantId: number,
    endpointId: number,
    secret: string,
    graceSeconds: number,
  ): Promise<EndpointRow | undefined> {
    const rows = (await sql.query(
      `WITH rotated AS (
         UPDATE ${ENDPOINT} SET previous_secret = secret, secret = $3,
           previous_secret_expires_at = now() + make_interval(secs => $4), updated_at = now()
         WHERE id = $1 AND merchant_id = $2 RETURNING ${COLUMNS})
       SELECT * FROM rotated`,
      [endpointId, merchantId, secret, graceSeconds],
    )) as EndpointRow[];
    return rows[0];
  }

  /** The event types one merchant's enabled endpoints subscribe to, as one query reads them. */
  async subscribedTypes(sql: Sql, merchantId: number): Promise<Set<string>> {
    const rows = (await sql.query(
      `SELECT DISTINCT unnest(event_types) AS type FROM ${ENDPOINT}
       WHERE merchant_id = $1 AND status = 'enabled'`,
      [merchantId],
    )) as { type: string }[];
    return new Set(rows.map((row) => row.type));
  }
}
