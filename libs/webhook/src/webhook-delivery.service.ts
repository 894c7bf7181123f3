import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CommonErrorCode, WebhookDeliveryPageView, WebhookDeliveryView } from '@consign/contracts';
import { CommandLedger } from '@consign/messaging';
import { DomainError } from '@consign/core';
import { webhookDatabase } from './webhook.database';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { webhookNotFound } from './webhook-endpoint.service';
import { WebhookSubscriptions } from './webhook-subscriptions';

/** An endpoint's deliveries and their attempts; a manual retry. */
@Injectable()
export class WebhookDeliveryService {
  constructor(
    @Inject(webhookDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(webhookDatabase.commands) private readonly commands: CommandLedger,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async list(
    merchantId: number,
    webhookId: number,
    page: number,
    size: number,
  ): Promise<WebhookDeliveryPageView> {
    const endpoint = await this.deliveries.endpointOf(this.dataSource, merchantId, webhookId);
    if (endpoint === undefined) throw webhookNotFound();
    const { total, list } = await this.deliveries.page(this.dataSource, endpoint, page, size);
    return { page, size, total, list };
  }

  /** Sends the delivery again now, whatever its state, on a fresh schedule. */
  async retry(
    merchantId: number,
    webhookId: number,
    deliveryId: number,
  ): Promise<WebhookDeliveryView> {
    const endpoint = await this.deliveries.endpointOf(this.dataSource, merchantId, webhookId);
    if (endpoint === undefined) throw webhookNotFound();
    // The re-queued delivery and its command record (which keeps the answer) commit together.
    const view = await this.commands.transaction(async (manager) => {
      const retried = await this.deliveries.retry(manager, endpoint, deliveryId);
      if (!retried) throw new DomainError(CommonErrorCode.NotFound, 'Webhook delivery not found.');
      return retried;
    });
    // Its endpoint may be enabled again.
    this.subscriptions.invalidate(merchantId);
    return view;
  }
}
