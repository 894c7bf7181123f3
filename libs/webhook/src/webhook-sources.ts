import {
  EventEnvelope,
  EventPayload,
  EventTopic,
  InboundEvent,
  OrderEvent,
  WebhookEventType,
} from '@consign/contracts';

/**
 * Which domain events feed which webhook event type, and the resource each delivers. The
 * services put the resource, as the API returns it, in the event (read in the transaction of
 * the change), so the dispatcher never asks a service for it: no request per event, and a
 * delivery shows the resource as the change left it, not as it is later.
 */
export const WEBHOOK_SOURCES = {
  [OrderEvent.StatusChanged]: {
    type: WebhookEventType.OrderStatusChanged,
    data: (payload: EventPayload<typeof OrderEvent.StatusChanged>) => payload.order,
  },
  [InboundEvent.StatusChanged]: {
    type: WebhookEventType.InboundStatusChanged,
    data: (payload: EventPayload<typeof InboundEvent.StatusChanged>) => payload.inbound,
  },
} as const satisfies {
  [K in EventTopic]?: { type: WebhookEventType; data: (payload: EventPayload<K>) => unknown };
};

/** The Standard Webhooks `webhook-id` of an event: the same for every attempt and endpoint. */
export function webhookIdOf(event: EventEnvelope<unknown>): string {
  return `msg_${event.event_id.replace(/-/g, '')}`;
}
