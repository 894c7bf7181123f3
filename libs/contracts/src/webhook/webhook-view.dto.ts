import {
  WebhookDeliveryStatus,
  WebhookEndpointStatus,
  WebhookEventType,
} from './webhook-event-type';

/** A merchant's webhook endpoint (never with its secret, except WebhookEndpointSecretView). */
export class WebhookEndpointView {
  id!: number;
  url!: string;
  event_types!: WebhookEventType[];
  description!: string | null;
  /** `disabled` once its deliveries failed for the whole retry schedule (`disabled_reason`). */
  status!: WebhookEndpointStatus;
  /** Why the endpoint was disabled; null while enabled. */
  disabled_reason!: string | null;
  /** ISO 8601 UTC. */
  created_time!: string;
}

/** The endpoint with its signing secret: answered once, by create and by rotate. */
export class WebhookEndpointSecretView extends WebhookEndpointView {
  /** Standard Webhooks secret (`whsec_…`): verify `webhook-signature` with it. */
  secret!: string;
  /**
   * After a rotation, until when (ISO 8601 UTC) deliveries are also signed with the previous
   * secret; null when there is none.
   */
  previous_secret_expires_time!: string | null;
}

/** One attempt at delivering a webhook. */
export class WebhookAttemptView {
  /** ISO 8601 UTC. */
  attempted_time!: string;
  /** The receiver's HTTP status; null when no answer came (refused, timeout, unsafe address). */
  response_code!: number | null;
  /** How long the attempt took, address lookup to the end of the answer or the failure, in ms. */
  duration_ms!: number;
  /** Why the attempt failed, when it did. */
  error!: string | null;
}

/** A webhook delivery to one endpoint and its attempts (newest first). */
export class WebhookDeliveryView {
  id!: number;
  /** The Standard Webhooks `webhook-id`: the same for every attempt of this delivery. */
  webhook_id!: string;
  event_type!: WebhookEventType;
  /** Per-endpoint sequence number, increasing with each event enqueued for the endpoint. */
  sequence!: number;
  /**
   * `pending` until its next attempt (the first included), `delivered` once the receiver answered
   * 2xx, `failed` when every attempt of the schedule failed (a manual retry sends it again).
   */
  status!: WebhookDeliveryStatus;
  /** Attempts made so far. */
  attempts!: number;
  /** The latest attempt's HTTP status (null when none or no answer). */
  response_code!: number | null;
  /** The latest attempt's duration in milliseconds (null before the first). */
  duration_ms!: number | null;
  /** ISO 8601 UTC; null once delivered or failed. */
  next_attempt_time!: string | null;
  /** ISO 8601 UTC. */
  created_time!: string;
  /** ISO 8601 UTC; null until delivered. */
  delivered_time!: string | null;
  attempt_list!: WebhookAttemptView[];
}

/** A page of an endpoint's deliveries, newest first. */
export class WebhookDeliveryPageView {
  page!: number;
  size!: number;
  total!: number;
  list!: WebhookDeliveryView[];
}
