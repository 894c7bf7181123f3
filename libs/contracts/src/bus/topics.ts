import type { ProductView } from '../catalog';
import type { CreateProductCommand, GetProductQuery, ListProductsQuery } from './catalog.commands';
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

/** Request-reply topics: the request payload and the data of a successful reply. */
export interface CommandMap {
  [CatalogTopic.CreateProduct]: { request: CreateProductCommand; reply: number };
  [CatalogTopic.GetProduct]: { request: GetProductQuery; reply: ProductView };
  [CatalogTopic.ListProducts]: { request: ListProductsQuery; reply: ProductView[] };
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
}

export type CommandTopic = keyof CommandMap;
export type CommandRequest<K extends CommandTopic> = CommandMap[K]['request'];
export type CommandReply<K extends CommandTopic> = CommandMap[K]['reply'];
export type EventTopic = keyof EventMap;
export type EventPayload<K extends EventTopic> = EventMap[K];

export const COMMAND_TOPICS: readonly CommandTopic[] = [
  ...Object.values(CatalogTopic),
  ...Object.values(RatingTopic),
];
export const EVENT_TOPICS: readonly EventTopic[] = [...Object.values(CatalogEvent)];

/** NestJS's Kafka client listens for a command's replies on `<topic>.reply`. */
export function replyTopicOf(topic: CommandTopic): string {
  return `${topic}.reply`;
}
