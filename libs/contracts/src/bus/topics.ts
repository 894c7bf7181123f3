import type { InventoryPageView, ProductView, StockReconciliationReport } from '../catalog';
import type { InboundOrderView, InboundPageView } from '../inbound';
import type { OrderPageView, OrderTrackingView, OrderView } from '../order';
import type {
  CreateProductCommand,
  GetProductQuery,
  ListInventoryQuery,
  ListProductsQuery,
  ReconcileStockCommand,
  ResolveVariantsQuery,
  ResolvedVariant,
} from './catalog.commands';
import type {
  CreateInboundCommand,
  InboundCommand,
  ListInboundQuery,
  RecordReceiptCommand,
  RejectInboundCommand,
} from './inbound.commands';
import type { InboundReceivedEvent, InboundStatusChangedEvent } from './inbound.events';
import type {
  CreateOrderCommand,
  HoldOrderCommand,
  ListOrdersQuery,
  OrderCommand,
  OrderStateView,
  OrderStatesQuery,
  ShipOrderCommand,
} from './order.commands';
import type {
  OrderCancelledEvent,
  OrderCreatedEvent,
  OrderReservationRequestedEvent,
  OrderShippedEvent,
  OrderStatusChangedEvent,
} from './order.events';
import type {
  StockLevelChangedEvent,
  StockReservationFailedEvent,
  StockReservedEvent,
} from './stock.events';
import type {
  WarehouseInboundReceivedEvent,
  WarehouseInboundRejectedEvent,
  WarehouseOrderCancelledEvent,
  WarehouseOrderPickingStartedEvent,
  WarehouseOrderShippedEvent,
} from './warehouse.events';
import type {
  CarrierEventsResult,
  LabelDocumentView,
  LabelTrackingView,
  LabelView,
} from '../label';
import type {
  CreateLabelCommand,
  GetLabelDocumentQuery,
  GetLabelQuery,
  GetOrderTrackingQuery,
  IngestCarrierEventsCommand,
} from './label.commands';
import type {
  LabelCreatedEvent,
  LabelVoidedEvent,
  LabelTrackingUpdatedEvent,
  OrderTrackingUpdatedEvent,
  ShipmentCreatedEvent,
  ShipmentDeliveredEvent,
} from './label.events';
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
import type {
  WebhookDeliveryPageView,
  WebhookEndpointSecretView,
  WebhookDeliveryView,
  WebhookEndpointView,
} from '../webhook';
import type {
  CreateWebhookCommand,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  RetryWebhookDeliveryCommand,
  WebhookCommand,
} from './webhook.commands';

/**
 * Every bus topic, versioned. Nothing else in the code base spells a topic name: a breaking
 * payload change gets a new version and both run side by side until consumers move.
 */
export const CatalogTopic = {
  CreateProduct: 'catalog.product.create.v1',
  GetProduct: 'catalog.product.get.v1',
  ListProducts: 'catalog.product.list.v1',
  ListInventory: 'catalog.inventory.list.v1',
  ResolveVariants: 'catalog.variant.resolve.v1',
  ReconcileStock: 'catalog.stock.reconcile.v1',
} as const;

export const OrderTopic = {
  Create: 'order.create.v1',
  Get: 'order.get.v1',
  List: 'order.list.v1',
  Cancel: 'order.cancel.v1',
  Hold: 'order.hold.v1',
  Release: 'order.release.v1',
  Pick: 'order.pick.v1',
  Ship: 'order.ship.v1',
  States: 'order.states.v1',
} as const;

export const InboundTopic = {
  Create: 'inbound.create.v1',
  Get: 'inbound.get.v1',
  List: 'inbound.list.v1',
  Cancel: 'inbound.cancel.v1',
  RecordReceipt: 'inbound.receipt.record.v1',
  Reject: 'inbound.reject.v1',
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

export const OrderEvent = {
  Created: 'order.created.v1',
  ReservationRequested: 'order.reservation_requested.v1',
  Cancelled: 'order.cancelled.v1',
  Shipped: 'order.shipped.v1',
  StatusChanged: 'order.status_changed.v1',
} as const;

export const StockEvent = {
  Reserved: 'stock.reserved.v1',
  ReservationFailed: 'stock.reservation_failed.v1',
  LevelChanged: 'stock.level_changed.v1',
} as const;

export const InboundEvent = {
  Received: 'inbound.received.v1',
  StatusChanged: 'inbound.status_changed.v1',
} as const;

/** Published by warehouse adapters; consumed by order-service and inbound-service. */
export const WarehouseEvent = {
  InboundReceived: 'warehouse.inbound_received.v1',
  InboundRejected: 'warehouse.inbound_rejected.v1',
  OrderPickingStarted: 'warehouse.order_picking_started.v1',
  OrderShipped: 'warehouse.order_shipped.v1',
  OrderCancelled: 'warehouse.order_cancelled.v1',
} as const;

export const LabelTopic = {
  Create: 'label.label.create.v1',
  Get: 'label.label.get.v1',
  GetTracking: 'label.tracking.get.v1',
  IngestCarrierEvents: 'label.checkpoint.ingest.v1',
  GetOrderTracking: 'label.order_tracking.get.v1',
  GetDocument: 'label.document.get.v1',
  Void: 'label.label.void.v1',
} as const;

export const LabelEvent = {
  Created: 'label.label.created.v1',
  Voided: 'label.label.voided.v1',
  ShipmentCreated: 'label.shipment.created.v1',
  ShipmentDelivered: 'label.shipment.delivered.v1',
  TrackingUpdated: 'label.tracking.updated.v1',
  OrderTrackingUpdated: 'label.order_tracking.updated.v1',
} as const;

/** webhook-dispatcher: merchants' webhook endpoints and their deliveries. */
export const WebhookTopic = {
  Create: 'webhook.endpoint.create.v1',
  List: 'webhook.endpoint.list.v1',
  Delete: 'webhook.endpoint.delete.v1',
  Rotate: 'webhook.endpoint.rotate.v1',
  ListDeliveries: 'webhook.delivery.list.v1',
  RetryDelivery: 'webhook.delivery.retry.v1',
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
  [LabelTopic.GetOrderTracking]: { request: GetOrderTrackingQuery; reply: OrderTrackingView[] };
  [LabelTopic.GetDocument]: { request: GetLabelDocumentQuery; reply: LabelDocumentView };
  [LabelTopic.Void]: { request: GetLabelQuery; reply: LabelView };
  [RatingTopic.CalculateOrder]: { request: CalculateOrderCommand; reply: OrderCostResultView[] };
  [RatingTopic.CalculateFreight]: {
    request: CalculateFreightCommand;
    reply: FreightCostResultView;
  };
  [CatalogTopic.ListInventory]: { request: ListInventoryQuery; reply: InventoryPageView };
  [CatalogTopic.ResolveVariants]: { request: ResolveVariantsQuery; reply: ResolvedVariant[] };
  [CatalogTopic.ReconcileStock]: {
    request: ReconcileStockCommand;
    reply: StockReconciliationReport;
  };
  [OrderTopic.Create]: { request: CreateOrderCommand; reply: number };
  [OrderTopic.Get]: { request: OrderCommand; reply: OrderView };
  [OrderTopic.List]: { request: ListOrdersQuery; reply: OrderPageView };
  [OrderTopic.Cancel]: { request: OrderCommand; reply: OrderView };
  [OrderTopic.Hold]: { request: HoldOrderCommand; reply: OrderView };
  [OrderTopic.Release]: { request: OrderCommand; reply: OrderView };
  [OrderTopic.Pick]: { request: OrderCommand; reply: OrderView };
  [OrderTopic.Ship]: { request: ShipOrderCommand; reply: OrderView };
  [OrderTopic.States]: { request: OrderStatesQuery; reply: OrderStateView[] };
  [InboundTopic.Create]: { request: CreateInboundCommand; reply: number };
  [InboundTopic.Get]: { request: InboundCommand; reply: InboundOrderView };
  [InboundTopic.List]: { request: ListInboundQuery; reply: InboundPageView };
  [InboundTopic.Cancel]: { request: InboundCommand; reply: InboundOrderView };
  [InboundTopic.RecordReceipt]: { request: RecordReceiptCommand; reply: InboundOrderView };
  [InboundTopic.Reject]: { request: RejectInboundCommand; reply: InboundOrderView };
  [RatingTopic.ListWarehouses]: { request: ListWarehousesQuery; reply: WarehouseView[] };
  [RatingTopic.ListServices]: { request: ListCarrierServicesQuery; reply: CarrierServiceView[] };
  [WebhookTopic.Create]: { request: CreateWebhookCommand; reply: WebhookEndpointSecretView };
  [WebhookTopic.List]: { request: ListWebhooksQuery; reply: WebhookEndpointView[] };
  [WebhookTopic.Delete]: { request: WebhookCommand; reply: WebhookEndpointView };
  [WebhookTopic.Rotate]: { request: WebhookCommand; reply: WebhookEndpointSecretView };
  [WebhookTopic.ListDeliveries]: {
    request: ListWebhookDeliveriesQuery;
    reply: WebhookDeliveryPageView;
  };
  [WebhookTopic.RetryDelivery]: {
    request: RetryWebhookDeliveryCommand;
    reply: WebhookDeliveryView;
  };
}

/** A variant of a new product, as `catalog.product.created.v1` lists it. */
export class CreatedVariant {
  id!: number;
  sku!: string;
}

/** `catalog.product.created.v1`: a merchant created a product (a class: the topic registry names it). */
export class ProductCreatedEvent {
  product_id!: number;
  variants!: CreatedVariant[];
}

/** Domain event topics and their payloads (wrapped in an EventEnvelope on the wire). */
export interface EventMap {
  [CatalogEvent.ProductCreated]: ProductCreatedEvent;
  [OrderEvent.Created]: OrderCreatedEvent;
  [OrderEvent.ReservationRequested]: OrderReservationRequestedEvent;
  [OrderEvent.Cancelled]: OrderCancelledEvent;
  [OrderEvent.Shipped]: OrderShippedEvent;
  [OrderEvent.StatusChanged]: OrderStatusChangedEvent;
  [StockEvent.Reserved]: StockReservedEvent;
  [StockEvent.ReservationFailed]: StockReservationFailedEvent;
  [StockEvent.LevelChanged]: StockLevelChangedEvent;
  [InboundEvent.Received]: InboundReceivedEvent;
  [InboundEvent.StatusChanged]: InboundStatusChangedEvent;
  [WarehouseEvent.InboundReceived]: WarehouseInboundReceivedEvent;
  [WarehouseEvent.InboundRejected]: WarehouseInboundRejectedEvent;
  [WarehouseEvent.OrderPickingStarted]: WarehouseOrderPickingStartedEvent;
  [WarehouseEvent.OrderShipped]: WarehouseOrderShippedEvent;
  [WarehouseEvent.OrderCancelled]: WarehouseOrderCancelledEvent;
  [LabelEvent.Created]: LabelCreatedEvent;
  [LabelEvent.Voided]: LabelVoidedEvent;
  [LabelEvent.ShipmentCreated]: ShipmentCreatedEvent;
  [LabelEvent.ShipmentDelivered]: ShipmentDeliveredEvent;
  [LabelEvent.TrackingUpdated]: LabelTrackingUpdatedEvent;
  [LabelEvent.OrderTrackingUpdated]: OrderTrackingUpdatedEvent;
}

export type CommandTopic = keyof CommandMap;
export type CommandRequest<K extends CommandTopic> = CommandMap[K]['request'];
export type CommandReply<K extends CommandTopic> = CommandMap[K]['reply'];
export type EventTopic = keyof EventMap;
export type EventPayload<K extends EventTopic> = EventMap[K];

export const COMMAND_TOPICS: readonly CommandTopic[] = [
  ...Object.values(CatalogTopic),
  ...Object.values(OrderTopic),
  ...Object.values(InboundTopic),
  ...Object.values(RatingTopic),
  ...Object.values(LabelTopic),
  ...Object.values(WebhookTopic),
];
export const EVENT_TOPICS: readonly EventTopic[] = [
  ...Object.values(CatalogEvent),
  ...Object.values(OrderEvent),
  ...Object.values(StockEvent),
  ...Object.values(InboundEvent),
  ...Object.values(WarehouseEvent),
  ...Object.values(LabelEvent),
];
/** Topics external adapters publish on, outside the command and event maps. */
export const ADAPTER_TOPICS: readonly string[] = [...Object.values(CarrierTopic)];

/** NestJS's Kafka client listens for a request pattern's replies on `<topic>.reply`. */
export function replyTopicOf(topic: string): string {
  return `${topic}.reply`;
}

/** Where a consumer parks a message of `topic` it gave up on (distributed mode; see DLT_HEADERS). */
export function deadLetterTopicOf(topic: string): string {
  return `${topic}.dlt`;
}
