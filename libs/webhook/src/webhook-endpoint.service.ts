import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CommonErrorCode,
  CreateWebhookRequest,
  WEBHOOK_LIMITS,
  WebhookEndpointSecretView,
  WebhookEndpointStatus,
  WebhookEndpointView,
  WebhookEventType,
} from '@consign/contracts';
import { CommandLedger, DomainError } from '@consign/platform';
import { AddressPolicy } from './address-policy';
import { endpointUrlProblem } from './endpoint-url';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { newSigningSecret } from './webhook-signer';
import { WebhookSubscriptions } from './webhook-subscriptions';

const ENDPOINT = '"webhooks"."webhook_endpoint"';

/** How long the previous secret still signs after a rotation. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

interface EndpointRow {
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

/** A merchant's webhook endpoints: register, list, remove, rotate the signing secret. */
@Injectable()
export class WebhookEndpointService {
  private readonly policy: AddressPolicy;

  constructor(
    @Inject(webhookDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(webhookDatabase.commands) private readonly commands: CommandLedger,
    private readonly config: WebhookConfig,
    private readonly subscriptions: WebhookSubscriptions,
  ) {
    this.policy = new AddressPolicy(config.WEBHOOK_ALLOWED_NETWORKS);
  }

  async create(
    merchantId: number,
    request: CreateWebhookRequest,
  ): Promise<WebhookEndpointSecretView> {
    const problem = endpointUrlProblem(request.url, {
      allowHttp: this.config.WEBHOOK_ALLOW_HTTP,
      policy: this.policy,
    });
    if (problem) throw new DomainError(CommonErrorCode.Validation, `Validation failed: ${problem}`);
    // The endpoint and its command record commit together, and the record keeps the answer
    // (so the answer is made, and a refusal thrown, inside the transaction): a retried create
    // answers the first.
    const created = await this.commands.transaction(async (manager) => {
      const [row] = (await manager.query(
        `INSERT INTO ${ENDPOINT} (merchant_id, url, event_types, description, secret)
         SELECT $1, $2, $3, $4, $5
         WHERE (SELECT count(*) FROM ${ENDPOINT} WHERE merchant_id = $1) < $6
         RETURNING ${COLUMNS}`,
        [
          merchantId,
          request.url,
          request.event_types,
          request.description ?? null,
          newSigningSecret(),
          WEBHOOK_LIMITS.endpoints,
        ],
      )) as EndpointRow[];
      if (!row)
        throw new DomainError(
          CommonErrorCode.Conflict,
          `A merchant may have at most ${WEBHOOK_LIMITS.endpoints} webhook endpoints.`,
        );
      return withSecret(row);
    });
    this.subscriptions.invalidate(merchantId);
    return created;
  }

  async list(merchantId: number): Promise<WebhookEndpointView[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM ${ENDPOINT} WHERE merchant_id = $1 ORDER BY id`,
      [merchantId],
    )) as EndpointRow[];
    return rows.map(toView);
  }

  /** Removes the endpoint with its deliveries; the answer is the endpoint as it was. */
  async delete(merchantId: number, webhookId: number): Promise<WebhookEndpointView> {
    const rows = (await this.dataSource.query(
      `WITH removed AS (DELETE FROM ${ENDPOINT} WHERE id = $1 AND merchant_id = $2 RETURNING ${COLUMNS})
       SELECT * FROM removed`,
      [webhookId, merchantId],
    )) as EndpointRow[];
    if (!rows[0]) throw webhookNotFound();
    this.subscriptions.invalidate(merchantId);
    return toView(rows[0]);
  }

  /** A new secret signs from now on; the old one also signs for ROTATION_GRACE_MS. */
  async rotate(merchantId: number, webhookId: number): Promise<WebhookEndpointSecretView> {
    return this.commands.transaction(async (manager) => {
      const rows = (await manager.query(
        `WITH rotated AS (
           UPDATE ${ENDPOINT} SET previous_secret = secret, secret = $3,
             previous_secret_expires_at = now() + make_interval(secs => $4), updated_at = now()
           WHERE id = $1 AND merchant_id = $2 RETURNING ${COLUMNS})
         SELECT * FROM rotated`,
        [webhookId, merchantId, newSigningSecret(), ROTATION_GRACE_MS / 1000],
      )) as EndpointRow[];
      if (!rows[0]) throw webhookNotFound();
      return withSecret(rows[0]);
    });
  }
}

export function webhookNotFound(): DomainError {
  return new DomainError(CommonErrorCode.NotFound, 'Webhook endpoint not found.');
}

function toView(row: EndpointRow): WebhookEndpointView {
  return {
    id: Number(row.id),
    url: row.url,
    event_types: row.event_types,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    created_time: row.created_at.toISOString(),
  };
}

function withSecret(row: EndpointRow): WebhookEndpointSecretView {
  return {
    ...toView(row),
    secret: row.secret,
    previous_secret_expires_time: row.previous_secret_expires_at
      ? row.previous_secret_expires_at.toISOString()
      : null,
  };
}
