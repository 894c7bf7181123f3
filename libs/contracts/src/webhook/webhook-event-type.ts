/**
 * The event types a merchant's webhook endpoint can subscribe to (Standard Webhooks `type`).
 * Each is fed by a domain event of a service (the webhook-dispatcher's WEBHOOK_SOURCES); only
 * types that are fed are listed.
 */
export enum WebhookEventType {
  OrderStatusChanged = 'order.status_changed',
  OrderTrackingUpdated = 'order.tracking_updated',
  LabelTrackingUpdated = 'label.tracking_updated',
  LabelVoided = 'label.voided',
  InboundStatusChanged = 'inbound.status_changed',
  StockLevelChanged = 'stock.level_changed',
}

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(WebhookEventType);

/** An endpoint is disabled once its deliveries failed for the whole retry schedule. */
export enum WebhookEndpointStatus {
  Enabled = 'enabled',
  Disabled = 'disabled',
}

export enum WebhookDeliveryStatus {
  /** Waiting for its next attempt (the first one included). */
  Pending = 'pending',
  /** The receiver answered 2xx. */
  Delivered = 'delivered',
  /** Every attempt of the schedule failed; a manual retry sends it again. */
  Failed = 'failed',
}
