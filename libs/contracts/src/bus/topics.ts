import type { ProductView } from '../catalog';
import type { CreateProductCommand, GetProductQuery, ListProductsQuery } from './catalog.commands';
import type { CarrierEventsResult, LabelTrackingView, LabelView } from '../label';
import type {
  CreateLabelCommand,
  GetLabelQuery,
  IngestCarrierEventsCommand,
} from './label.commands';
import type { LabelCreatedEvent } from './label.events';
import type {
  CarrierServiceView,
  FreightCostResultView,
  OrderCostResultView,
  WarehouseView,
} from '../rating';
import type {
  CalculateFreightCommand,
  CalculateOrderCommand,
  ListCarrierServicesQuery,
  ListWarehousesQuery,
} from './rating.commands';

/**
 * Every bus topic, versioned. Nothing else in the code base spells a topic name: a breaking
 * payload change gets a new version and both run side by side until consumers move.
 */
export const CatalogTopic = {
  CreateProduct: 'catalog.product.create.v1',
  GetProduct: 'catalog.product.get.v1',
  ListProducts: 'catalog.product.list.v1',
} as const;

export const RatingTopic = {
  CalculateOrder: 'rating.order.calculate.v1',
  CalculateFreight: 'rating.freight.calculate.v1',
  ListWarehouses: 'rating.warehouse.list.v1',
  ListServices: 'rating.service.list.v1',
} as const;

export const CatalogEvent = {
  ProductCreated: 'catalog.product.created.v1',
} as const;

export const LabelTopic = {
  Create: 'label.label.create.v1',
  Get: 'label.label.get.v1',
  GetTracking: 'label.tracking.get.v1',
  IngestCarrierEvents: 'label.checkpoint.ingest.v1',
} as const;

export const LabelEvent = {
  Created: 'label.label.created.v1',
} as const;

/**
 * What carrier adapters publish: raw carrier events (`CarrierCheckpointEvent`, not wrapped in an
 * EventEnvelope: a carrier knows parcels, not merchants), consumed in batches by
 * label-tracking-service.
 */
export const CarrierTopic = {
  Checkpoint: 'carrier.checkpoint.v1',
} as const;

/** Request-reply topics: the request payload and the data of a successful reply. */
export interface CommandMap {
  [CatalogTopic.CreateProduct]: { request: CreateProductCommand; reply: number };
  [CatalogTopic.GetProduct]: { request: GetProductQuery; reply: ProductView };
  [CatalogTopic.ListProducts]: { request: ListProductsQuery; reply: ProductView[] };
  [LabelTopic.Create]: { request: CreateLabelCommand; reply: number };
  [LabelTopic.Get]: { request: GetLabelQuery; reply: LabelView };
  [LabelTopic.GetTracking]: { request: GetLabelQuery; reply: LabelTrackingView };
  [LabelTopic.IngestCarrierEvents]: {
    request: IngestCarrierEventsCommand;
    reply: CarrierEventsResult;
  };
  [RatingTopic.CalculateOrder]: { request: CalculateOrderCommand; reply: OrderCostResultView[] };
  [RatingTopic.CalculateFreight]: {
    request: CalculateFreightCommand;
    reply: FreightCostResultView;
  };
  [RatingTopic.ListWarehouses]: { request: ListWarehousesQuery; reply: WarehouseView[] };
  [RatingTopic.ListServices]: { request: ListCarrierServicesQuery; reply: CarrierServiceView[] };
}

export interface ProductCreatedEvent {
  product_id: number;
  variants: { id: number; sku: string }[];
}

/** Domain event topics and their payloads (wrapped in an EventEnvelope on the wire). */
export interface EventMap {
  [CatalogEvent.ProductCreated]: ProductCreatedEvent;
  [LabelEvent.Created]: LabelCreatedEvent;
}

export type CommandTopic = keyof CommandMap;
export type CommandRequest<K extends CommandTopic> = CommandMap[K]['request'];
export type CommandReply<K extends CommandTopic> = CommandMap[K]['reply'];
export type EventTopic = keyof EventMap;
export type EventPayload<K extends EventTopic> = EventMap[K];

export const COMMAND_TOPICS: readonly CommandTopic[] = [
  ...Object.values(CatalogTopic),
  ...Object.values(RatingTopic),
  ...Object.values(LabelTopic),
];
export const EVENT_TOPICS: readonly EventTopic[] = [
  ...Object.values(CatalogEvent),
  ...Object.values(LabelEvent),
];
/** Topics external adapters publish on, outside the command and event maps. */
export const ADAPTER_TOPICS: readonly string[] = [...Object.values(CarrierTopic)];

/** NestJS's Kafka client listens for a command's replies on `<topic>.reply`. */
export function replyTopicOf(topic: CommandTopic): string {
  return `${topic}.reply`;
}
