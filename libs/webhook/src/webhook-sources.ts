import {
  CommandReply,
  CommandRequest,
  EventEnvelope,
  EventPayload,
  EventTopic,
  InboundEvent,
  LabelEvent,
  LabelTopic,
  OrderEvent,
  StockEvent,
  WebhookEventType,
} from '@consign/contracts';
import { CommandBus } from '@consign/bus';
import { DomainError } from '@consign/core';

type Read<K extends EventTopic> = (
  event: EventEnvelope<EventPayload<K>>,
  bus: CommandBus,
) => unknown | Promise<unknown>;

/**
 * Which domain events feed which webhook event type, and the resource each delivers. Status
 * changes carry their resource, as the API returns it, read by the service in the transaction of
 * the change: a delivery shows the record as that change left it. Tracking updates and voids carry
 * only the label or order: the dispatcher asks label-tracking for the tracking, or the voided label
 * (a bus request, before and outside any transaction), so those deliveries show it as it is when
 * the event is consumed (tracking latest first, as the API answers it; a voided label stays
 * voided).
 */
export const WEBHOOK_SOURCES: { [K in EventTopic]?: { type: WebhookEventType; read: Read<K> } } = {
  [OrderEvent.StatusChanged]: {
    type: WebhookEventType.OrderStatusChanged,
    read: (event) => event.payload.order,
  },
  [InboundEvent.StatusChanged]: {
    type: WebhookEventType.InboundStatusChanged,
    read: (event) => event.payload.inbound,
  },
  [StockEvent.LevelChanged]: {
    type: WebhookEventType.StockLevelChanged,
    read: (event) => event.payload,
  },
  [LabelEvent.TrackingUpdated]: {
    type: WebhookEventType.LabelTrackingUpdated,
    read: async (event, bus) => ({
      label_id: event.payload.label_id,
      ...(await ask(bus, LabelTopic.GetTracking, {
        merchant_id: event.merchant_id,
        label_id: event.payload.label_id,
      })),
    }),
  },
  [LabelEvent.Voided]: {
    type: WebhookEventType.LabelVoided,
    read: (event, bus) =>
      ask(bus, LabelTopic.Get, {
        merchant_id: event.merchant_id,
        label_id: event.payload.label_id,
      }),
  },
  [LabelEvent.OrderTrackingUpdated]: {
    type: WebhookEventType.OrderTrackingUpdated,
    read: async (event, bus) => ({
      order_id: event.payload.order_id,
      shipments: await ask(bus, LabelTopic.GetOrderTracking, {
        merchant_id: event.merchant_id,
        order_id: event.payload.order_id,
      }),
    }),
  },
};

async function ask<
  K extends
    typeof LabelTopic.Get | typeof LabelTopic.GetTracking | typeof LabelTopic.GetOrderTracking,
>(bus: CommandBus, topic: K, payload: CommandRequest<K>): Promise<CommandReply<K>> {
  const reply = await bus.request(topic, payload, { key: String(payload.merchant_id) });
  if (!reply.ok) throw new DomainError(reply.error.code, reply.error.message);
  return reply.data;
}

/** The Standard Webhooks `webhook-id` of an event: the same for every attempt and endpoint. */
export function webhookIdOf(event: EventEnvelope<unknown>): string {
  return `msg_${event.event_id.replace(/-/g, '')}`;
}
