import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, Min, ValidateNested } from 'class-validator';
import { CreateWebhookRequest } from '../webhook';
import { MerchantScoped } from './catalog.commands';
import { MerchantPageQuery } from './page-query';

export class CreateWebhookCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateWebhookRequest)
  webhook!: CreateWebhookRequest;
}

export class ListWebhooksQuery extends MerchantScoped {}

/** Delete and rotate name one endpoint of the merchant. */
export class WebhookCommand extends MerchantScoped {
  @IsInt()
  @Min(1)
  webhook_id!: number;
}

export class ListWebhookDeliveriesQuery extends MerchantPageQuery {
  @IsInt()
  @Min(1)
  webhook_id!: number;
}

export class RetryWebhookDeliveryCommand extends WebhookCommand {
  @IsInt()
  @Min(1)
  delivery_id!: number;
}
