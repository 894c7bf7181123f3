import { InventoryPageView, ProductView, StockReconciliationReport } from '../catalog';
import { InboundOrderView, InboundPageView } from '../inbound';
import {
  CarrierCheckpointEvent,
  CarrierEventsResult,
  LabelDocumentView,
  LabelTrackingView,
  LabelView,
} from '../label';
import { OrderPageView, OrderTrackingView, OrderView } from '../order';
import {
  CarrierServiceView,
  FreightCostResultView,
  OrderCostResultView,
  WarehouseView,
} from '../rating';
import {
  CreateProductCommand,
  GetProductQuery,
  ListInventoryQuery,
  ListProductsQuery,
  ReconcileStockCommand,
  ResolveVariantsQuery,
  ResolvedVariant,
} from './catalog.commands';
import {
  CreateInboundCommand,
  InboundCommand,
  ListInboundQuery,
  RecordReceiptCommand,
  RejectInboundCommand,
} from './inbound.commands';
import { InboundReceivedEvent, InboundStatusChangedEvent } from './inbound.events';
import {
  CreateLabelCommand,
  GetLabelDocumentQuery,
  GetLabelQuery,
  GetOrderTrackingQuery,
  IngestCarrierEventsCommand,
} from './label.commands';
import {
  LabelCreatedEvent,
  LabelVoidedEvent,
  LabelTrackingUpdatedEvent,
  OrderTrackingUpdatedEvent,
  ShipmentCreatedEvent,
  ShipmentDeliveredEvent,
} from './label.events';
import {
  CreateOrderCommand,
  HoldOrderCommand,
  ListOrdersQuery,
  OrderCommand,
  OrderStateView,
  OrderStatesQuery,
  ShipOrderCommand,
} from './order.commands';
import {
  OrderCancelledEvent,
  OrderCreatedEvent,
  OrderReservationRequestedEvent,
  OrderShippedEvent,
  OrderStatusChangedEvent,
} from './order.events';
import {
  CalculateFreightCommand,
  CalculateOrderCommand,
  ListCarrierServicesQuery,
  ListWarehousesQuery,
} from './rating.commands';
import {
  StockLevelChangedEvent,
  StockReservationFailedEvent,
  StockReservedEvent,
} from './stock.events';
import {
  CarrierTopic,
  CatalogEvent,
  CatalogTopic,
  CommandMap,
  CommandTopic,
  EventMap,
  EventTopic,
  InboundEvent,
  InboundTopic,
  LabelEvent,
  LabelTopic,
  OrderEvent,
  OrderTopic,
  ProductCreatedEvent,
  RatingTopic,
  StockEvent,
  WarehouseEvent,
  WebhookTopic,
} from './topics';
import {
  WebhookDeliveryPageView,
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
} from '../webhook';
import {
  CreateWebhookCommand,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  RetryWebhookDeliveryCommand,
  WebhookCommand,
} from './webhook.commands';
import {
  WarehouseInboundReceivedEvent,
  WarehouseInboundRejectedEvent,
  WarehouseOrderCancelledEvent,
  WarehouseOrderPickingStartedEvent,
  WarehouseOrderShippedEvent,
} from './warehouse.events';

/*
 * The run-time twin of CommandMap / EventMap (which are types only): which class each topic
 * carries, for tools that need the classes themselves (the AsyncAPI generator reads their
 * validation rules). The compiler holds it to the maps: a topic left out, an extra one, or a class
 * that is not exactly the map's type (a subclass or a superclass included) fails `tsc`.
 */

/** A class whose instances are `T`. */
export type ClassOf<T> = new (...args: never[]) => T;

/** How a reply's data is named: a class, a list of a class (`[Class]`), or `Number` (an id). */
export type ReplyDescriptor<T> = [T] extends [number]
  ? NumberConstructor
  : T extends readonly (infer E)[]
    ? readonly [ClassOf<E>]
    : ClassOf<T>;

export interface CommandEntry<K extends CommandTopic> {
  request: ClassOf<CommandMap[K]['request']>;
  reply: ReplyDescriptor<CommandMap[K]['reply']>;
}

/** The type a reply descriptor stands for. */
export type DescribedType<D> = D extends NumberConstructor
  ? number
  : D extends readonly [infer C]
    ? DescribedType<C>[]
    : D extends new (...args: never[]) => infer I
      ? I
      : never;

/** Mutual assignability: `Same<Sub, Base>` is false although a Sub is assignable to Base. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const COMMAND_REGISTRY = {
  [CatalogTopic.CreateProduct]: { request: CreateProductCommand, reply: Number },
  [CatalogTopic.GetProduct]: { request: GetProductQuery, reply: ProductView },
  [CatalogTopic.ListProducts]: { request: ListProductsQuery, reply: [ProductView] },
  [CatalogTopic.ListInventory]: { request: ListInventoryQuery, reply: InventoryPageView },
  [CatalogTopic.ResolveVariants]: { request: ResolveVariantsQuery, reply: [ResolvedVariant] },
  [CatalogTopic.ReconcileStock]: {
    request: ReconcileStockCommand,
    reply: StockReconciliationReport,
  },
  [OrderTopic.Create]: { request: CreateOrderCommand, reply: Number },
  [OrderTopic.Get]: { request: OrderCommand, reply: OrderView },
  [OrderTopic.List]: { request: ListOrdersQuery, reply: OrderPageView },
  [OrderTopic.Cancel]: { request: OrderCommand, reply: OrderView },
  [OrderTopic.Hold]: { request: HoldOrderCommand, reply: OrderView },
  [OrderTopic.Release]: { request: OrderCommand, reply: OrderView },
  [OrderTopic.Pick]: { request: OrderCommand, reply: OrderView },
  [OrderTopic.Ship]: { request: ShipOrderCommand, reply: OrderView },
  [OrderTopic.States]: { request: OrderStatesQuery, reply: [OrderStateView] },
  [InboundTopic.Create]: { request: CreateInboundCommand, reply: Number },
  [InboundTopic.Get]: { request: InboundCommand, reply: InboundOrderView },
  [InboundTopic.List]: { request: ListInboundQuery, reply: InboundPageView },
  [InboundTopic.Cancel]: { request: InboundCommand, reply: InboundOrderView },
  [InboundTopic.RecordReceipt]: { request: RecordReceiptCommand, reply: InboundOrderView },
  [InboundTopic.Reject]: { request: RejectInboundCommand, reply: InboundOrderView },
  [RatingTopic.CalculateOrder]: { request: CalculateOrderCommand, reply: [OrderCostResultView] },
  [RatingTopic.CalculateFreight]: {
    request: CalculateFreightCommand,
    reply: FreightCostResultView,
  },
  [RatingTopic.ListWarehouses]: { request: ListWarehousesQuery, reply: [WarehouseView] },
  [RatingTopic.ListServices]: { request: ListCarrierServicesQuery, reply: [CarrierServiceView] },
  [LabelTopic.Create]: { request: CreateLabelCommand, reply: Number },
  [LabelTopic.Get]: { request: GetLabelQuery, reply: LabelView },
  [LabelTopic.GetTracking]: { request: GetLabelQuery, reply: LabelTrackingView },
  [LabelTopic.IngestCarrierEvents]: {
    request: IngestCarrierEventsCommand,
    reply: CarrierEventsResult,
  },
  [LabelTopic.GetOrderTracking]: { request: GetOrderTrackingQuery, reply: [OrderTrackingView] },
  [LabelTopic.GetDocument]: { request: GetLabelDocumentQuery, reply: LabelDocumentView },
  [LabelTopic.Void]: { request: GetLabelQuery, reply: LabelView },
  [WebhookTopic.Create]: { request: CreateWebhookCommand, reply: WebhookEndpointSecretView },
  [WebhookTopic.List]: { request: ListWebhooksQuery, reply: [WebhookEndpointView] },
  [WebhookTopic.Delete]: { request: WebhookCommand, reply: WebhookEndpointView },
  [WebhookTopic.Rotate]: { request: WebhookCommand, reply: WebhookEndpointSecretView },
  [WebhookTopic.ListDeliveries]: {
    request: ListWebhookDeliveriesQuery,
    reply: WebhookDeliveryPageView,
  },
  [WebhookTopic.RetryDelivery]: {
    request: RetryWebhookDeliveryCommand,
    reply: WebhookDeliveryView,
  },
} as const satisfies { readonly [K in CommandTopic]: CommandEntry<K> };

export const EVENT_REGISTRY = {
  [CatalogEvent.ProductCreated]: ProductCreatedEvent,
  [OrderEvent.Created]: OrderCreatedEvent,
  [OrderEvent.ReservationRequested]: OrderReservationRequestedEvent,
  [OrderEvent.Cancelled]: OrderCancelledEvent,
  [OrderEvent.Shipped]: OrderShippedEvent,
  [OrderEvent.StatusChanged]: OrderStatusChangedEvent,
  [StockEvent.Reserved]: StockReservedEvent,
  [StockEvent.ReservationFailed]: StockReservationFailedEvent,
  [StockEvent.LevelChanged]: StockLevelChangedEvent,
  [InboundEvent.Received]: InboundReceivedEvent,
  [InboundEvent.StatusChanged]: InboundStatusChangedEvent,
  [WarehouseEvent.InboundReceived]: WarehouseInboundReceivedEvent,
  [WarehouseEvent.InboundRejected]: WarehouseInboundRejectedEvent,
  [WarehouseEvent.OrderPickingStarted]: WarehouseOrderPickingStartedEvent,
  [WarehouseEvent.OrderShipped]: WarehouseOrderShippedEvent,
  [WarehouseEvent.OrderCancelled]: WarehouseOrderCancelledEvent,
  [LabelEvent.Created]: LabelCreatedEvent,
  [LabelEvent.Voided]: LabelVoidedEvent,
  [LabelEvent.ShipmentCreated]: ShipmentCreatedEvent,
  [LabelEvent.ShipmentDelivered]: ShipmentDeliveredEvent,
  [LabelEvent.TrackingUpdated]: LabelTrackingUpdatedEvent,
  [LabelEvent.OrderTrackingUpdated]: OrderTrackingUpdatedEvent,
} as const satisfies { readonly [K in EventTopic]: ClassOf<EventMap[K]> };

/** Adapter topics (ADAPTER_TOPICS): raw messages, not in an EventEnvelope. */
export const ADAPTER_REGISTRY = {
  [CarrierTopic.Checkpoint]: CarrierCheckpointEvent,
} as const satisfies Record<(typeof CarrierTopic)[keyof typeof CarrierTopic], ClassOf<object>>;

/** Topics whose registry entry is not exactly the map's type; `never` when none. */
export type CommandRegistryDrift = {
  [K in CommandTopic]: Same<
    InstanceType<(typeof COMMAND_REGISTRY)[K]['request']>,
    CommandMap[K]['request']
  > extends true
    ? Same<
        DescribedType<(typeof COMMAND_REGISTRY)[K]['reply']>,
        CommandMap[K]['reply']
      > extends true
      ? never
      : K
    : K;
}[CommandTopic];

export type EventRegistryDrift = {
  [K in EventTopic]: Same<InstanceType<(typeof EVENT_REGISTRY)[K]>, EventMap[K]> extends true
    ? never
    : K;
}[EventTopic];

/*
 * Compile-time checks: when an entry drifts, the error names its topic ("Type 'true' is not
 * assignable to type '<topic>'").
 */
export const COMMAND_REGISTRY_MATCHES_MAP: [CommandRegistryDrift] extends [never]
  ? true
  : CommandRegistryDrift = true;
export const EVENT_REGISTRY_MATCHES_MAP: [EventRegistryDrift] extends [never]
  ? true
  : EventRegistryDrift = true;
