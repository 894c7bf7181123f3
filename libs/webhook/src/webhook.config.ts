import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, Max, Min } from 'class-validator';
import { toInt } from '@consign/config';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : value;

/** Address ranges a webhook URL may reach only when the deployment allows them. */
export const GUARDED_NETWORKS = ['loopback', 'private', 'link-local'] as const;
export type GuardedNetwork = (typeof GUARDED_NETWORKS)[number];

/** webhook-dispatcher's settings (read with loadConfigOf; every one has a default). */
export class WebhookConfig {
  /** Allow `http://` endpoint URLs (local use only: production endpoints are https). */
  @Transform(toBoolean)
  @IsBoolean()
  WEBHOOK_ALLOW_HTTP = false;

  /**
   * Comma-separated ranges endpoints may resolve to after all: `loopback`, `private`,
   * `link-local` (which holds the cloud metadata address). Empty by default: only public
   * addresses are delivered to.
   */
  @Transform(toList)
  @IsIn(GUARDED_NETWORKS, { each: true })
  WEBHOOK_ALLOWED_NETWORKS: GuardedNetwork[] = [];

  /** Longest wait for a receiver's answer, per attempt (then the attempt failed). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** First retry delay; each next one is four times longer (with ±20 % jitter), up to the cap. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  WEBHOOK_RETRY_BASE_MS = 5_000;

  /** Longest delay between two attempts (a receiver's Retry-After included). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400_000)
  WEBHOOK_RETRY_MAX_DELAY_MS = 43_200_000;

  /**
   * How long a delivery is retried, from its first attempt: past it, the delivery failed and its
   * endpoint is disabled. Three days by default.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(30 * 86_400_000)
  WEBHOOK_RETRY_HORIZON_MS = 3 * 86_400_000;

  /** Deliveries in flight at once, per dispatcher process. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 128;

  /**
   * How long a process trusts what it read of a merchant's subscriptions (which event types its
   * enabled endpoints want) before reading them again; creating or re-enabling an endpoint answers
   * this much later, so that every process sees it before any event emitted after the answer
   * (docs/webhooks.md). 0: read them for every event, no wait.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  WEBHOOK_SUBSCRIPTION_TTL_MS = 500;

  /** How often due deliveries are looked for when nothing new arrived. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  WEBHOOK_POLL_MS = 1_000;
}
