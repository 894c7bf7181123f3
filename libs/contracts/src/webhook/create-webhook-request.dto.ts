import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsEnum,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
} from 'class-validator';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from './webhook-event-type';
import { WEBHOOK_LIMITS } from './webhook.limits';

/** Body of POST /2026-05/cloud/webhook. */
export class CreateWebhookRequest {
  /**
   * Where deliveries are POSTed: an absolute https URL (http only where the deployment allows it
   * for local use). Hosts resolving to loopback, private, link-local or metadata addresses are
   * refused unless the deployment allows them.
   */
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.url)
  @IsUrl({
    protocols: ['http', 'https'],
    require_protocol: true,
    require_tld: false,
    allow_underscores: true,
  })
  url!: string;

  /** The event types to receive, at least one. */
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsEnum(WebhookEventType, { each: true })
  event_types!: WebhookEventType[];

  /** Free text for the merchant. */
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.description)
  description?: string;
}
