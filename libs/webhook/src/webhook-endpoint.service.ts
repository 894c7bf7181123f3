import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CommonErrorCode,
  CreateWebhookRequest,
  WEBHOOK_LIMITS,
  WebhookEndpointSecretView,
  WebhookEndpointView,
} from '@consign/contracts';
import { CommandLedger } from '@consign/messaging';
import { DomainError } from '@consign/core';
import { AddressPolicy } from './address-policy';
import { endpointUrlProblem } from './endpoint-url';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { newSigningSecret } from './webhook-signer';
import { WebhookSubscriptions } from './webhook-subscriptions';
import { EndpointRow, WebhookEndpointRepository } from './webhook-endpoint.repository';

/** How long the previous secret still signs after a rotation. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** A merchant's webhook endpoints: register, list, remove, rotate the signing secret. */
@Injectable()
export class WebhookEndpointService {
  private readonly policy: AddressPolicy;

  constructor(
    @Inject(webhookDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(webhookDatabase.commands) private readonly commands: CommandLedger,
    private readonly config: WebhookConfig,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly endpoints: WebhookEndpointRepository,
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
      const row = await this.endpoints.insertWithinLimit(
        manager,
        {
          merchantId,
          url: request.url,
          eventTypes: request.event_types,
          description: request.description ?? null,
          secret: newSigningSecret(),
        },
        WEBHOOK_LIMITS.endpoints,
      );
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
    const rows = await this.endpoints.list(this.dataSource, merchantId);
    return rows.map(toView);
  }

  /** Removes the endpoint with its deliveries; the answer is the endpoint as it was. */
  async delete(merchantId: number, webhookId: number): Promise<WebhookEndpointView> {
    const removed = await this.endpoints.delete(this.dataSource, merchantId, webhookId);
    if (!removed) throw webhookNotFound();
    this.subscriptions.invalidate(merchantId);
    return toView(removed);
  }

  /** A new secret signs from now on; the old one also signs for ROTATION_GRACE_MS. */
  async rotate(merchantId: number, webhookId: number): Promise<WebhookEndpointSecretView> {
    return this.commands.transaction(async (manager) => {
      const rotated = await this.endpoints.rotate(
        manager,
        merchantId,
        webhookId,
        newSigningSecret(),
        ROTATION_GRACE_MS / 1000,
      );
      if (!rotated) throw webhookNotFound();
      return withSecret(rotated);
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
