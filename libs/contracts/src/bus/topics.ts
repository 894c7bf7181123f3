import { CarrierEvents } from './carrier.events';
import { CatalogCommands } from './catalog.commands';
import { CatalogEvents } from './catalog.events';
import { EventDefinition, PayloadOf, ReplyOf, RequestOf, topicsOf } from './definition';
import { InboundCommands } from './inbound.commands';
import { InboundEvents } from './inbound.events';
import { LabelCommands } from './label.commands';
import { LabelEvents } from './label.events';
import { OrderCommands } from './order.commands';
import { OrderEvents } from './order.events';
import { RatingCommands } from './rating.commands';
import { StockEvents } from './stock.events';
import { WarehouseEvents } from './warehouse.events';
import { WebhookCommands } from './webhook.commands';

/*
 * Every bus topic, versioned. Each is defined once, with its classes, in its domain's
 * `*.commands.ts` / `*.events.ts` (`command(…)`, `event(…)`); everything here is derived from those
 * definitions. Nothing else in the code base spells a topic name: a breaking payload change gets a
 * new version and both run side by side until consumers move.
 */

/** Topic names by operation, e.g. `OrderTopic.Create` is `'order.create.v1'`. */
export const CatalogTopic = topicsOf(CatalogCommands);
export const OrderTopic = topicsOf(OrderCommands);
export const InboundTopic = topicsOf(InboundCommands);
export const RatingTopic = topicsOf(RatingCommands);
export const LabelTopic = topicsOf(LabelCommands);
export const WebhookTopic = topicsOf(WebhookCommands);

export const CatalogEvent = topicsOf(CatalogEvents);
export const OrderEvent = topicsOf(OrderEvents);
export const StockEvent = topicsOf(StockEvents);
export const InboundEvent = topicsOf(InboundEvents);
/** Published by warehouse adapters; consumed by order-service and inbound-service. */
export const WarehouseEvent = topicsOf(WarehouseEvents);
export const LabelEvent = topicsOf(LabelEvents);

/** Adapter topics (raw messages, no EventEnvelope): see CarrierEvents. */
export const CarrierTopic = topicsOf(CarrierEvents);

/** The definitions of a group (say OrderCommands), as a union; distributes over a union of groups. */
type DefinitionIn<Group> = Group extends unknown ? Group[keyof Group] : never;

const COMMAND_GROUPS = [
  CatalogCommands,
  OrderCommands,
  InboundCommands,
  RatingCommands,
  LabelCommands,
  WebhookCommands,
] as const;

const EVENT_GROUPS = [
  CatalogEvents,
  OrderEvents,
  StockEvents,
  InboundEvents,
  WarehouseEvents,
  LabelEvents,
] as const;

/** Every request-reply definition, as a union. */
export type AnyCommandDefinition = DefinitionIn<(typeof COMMAND_GROUPS)[number]>;
/** Every domain event definition, as a union. */
export type AnyEventDefinition = DefinitionIn<(typeof EVENT_GROUPS)[number]>;

/** Request-reply topics: the request payload and the data of a successful reply. */
export type CommandMap = {
  [D in AnyCommandDefinition as D['topic']]: { request: RequestOf<D>; reply: ReplyOf<D> };
};

/** Domain event topics and their payloads (wrapped in an EventEnvelope on the wire). */
export type EventMap = {
  [D in AnyEventDefinition as D['topic']]: PayloadOf<D>;
};

export type CommandTopic = keyof CommandMap;
export type CommandRequest<K extends CommandTopic> = CommandMap[K]['request'];
export type CommandReply<K extends CommandTopic> = CommandMap[K]['reply'];
export type EventTopic = keyof EventMap;
export type EventPayload<K extends EventTopic> = EventMap[K];

/** The definition of an event topic (what handleEvent takes for topic `K`). */
export type EventDefinitionOf<K extends EventTopic> = EventDefinition<K, EventPayload<K>>;

/** Every request-reply definition (the AsyncAPI generator reads their classes). */
export const COMMAND_DEFINITIONS: readonly AnyCommandDefinition[] = COMMAND_GROUPS.flatMap(
  (group): AnyCommandDefinition[] => Object.values(group),
);
/** Every domain event definition. */
export const EVENT_DEFINITIONS: readonly AnyEventDefinition[] = EVENT_GROUPS.flatMap(
  (group): AnyEventDefinition[] => Object.values(group),
);
/** What external adapters publish, outside the command and event maps (raw, no EventEnvelope). */
export const ADAPTER_DEFINITIONS: readonly EventDefinition[] = Object.values(CarrierEvents);

export const COMMAND_TOPICS: readonly CommandTopic[] = COMMAND_DEFINITIONS.map((d) => d.topic);
export const EVENT_TOPICS: readonly EventTopic[] = EVENT_DEFINITIONS.map((d) => d.topic);
/** Topics external adapters publish on, outside the command and event maps. */
export const ADAPTER_TOPICS: readonly string[] = ADAPTER_DEFINITIONS.map((d) => d.topic);

/**
 * Whether the command of this topic is idempotent (its definition says so): carried out once per
 * command id, its routes honouring Idempotency-Key.
 */
export function isIdempotentCommand(topic: CommandTopic): boolean {
  return COMMAND_DEFINITIONS.some((d) => d.topic === topic && d.idempotent === true);
}

/** NestJS's Kafka client listens for a request pattern's replies on `<topic>.reply`. */
export function replyTopicOf(topic: string): string {
  return `${topic}.reply`;
}

/** Where a consumer parks a message of `topic` it gave up on (distributed mode; see DLT_HEADERS). */
export function deadLetterTopicOf(topic: string): string {
  return `${topic}.dlt`;
}
