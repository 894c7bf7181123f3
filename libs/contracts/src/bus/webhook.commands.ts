import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { IsId } from '../common/formats';
import { NestedType } from '../common/contract-metadata';
import {
  CreateWebhookRequest,
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
} from '../webhook';
import { MerchantScoped } from './catalog.commands';
import { command } from './definition';
import { MerchantPageQuery } from './page-query';

export class CreateWebhookCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CreateWebhookRequest)
  webhook!: CreateWebhookRequest;
}

export class ListWebhooksQuery extends MerchantScoped {}

/** Delete and rotate name one endpoint of the merchant. */
export class WebhookCommand extends MerchantScoped {
  @IsId()
  webhook_id!: number;
}

export class ListWebhookDeliveriesQuery extends MerchantPageQuery {
  @IsId()
  webhook_id!: number;
}

export class RetryWebhookDeliveryCommand extends WebhookCommand {
  @IsId()
  delivery_id!: number;
}

/** webhook-dispatcher's request-reply topics: merchants' webhook endpoints and their deliveries. */
export const WebhookCommands = {
  Create: command('webhook.endpoint.create.v1', CreateWebhookCommand, WebhookEndpointSecretView, {
    idempotent: true,
  }),
  List: command('webhook.endpoint.list.v1', ListWebhooksQuery, [WebhookEndpointView]),
  Delete: command('webhook.endpoint.delete.v1', WebhookCommand, WebhookEndpointView),
  Rotate: command('webhook.endpoint.rotate.v1', WebhookCommand, WebhookEndpointSecretView, {
    idempotent: true,
  }),
  ListDeliveries: command(
    'webhook.delivery.list.v1',
    ListWebhookDeliveriesQuery,
    WebhookDeliveryPageView,
  ),
  RetryDelivery: command(
    'webhook.delivery.retry.v1',
    RetryWebhookDeliveryCommand,
    WebhookDeliveryView,
    { idempotent: true },
  ),
};
