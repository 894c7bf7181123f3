import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsId } from '../common/formats';
import { InboundReceiptRequest, RejectInboundRequest } from '../inbound/inbound-operations.dto';
import { ORDER_LIMITS } from '../order/order.limits';
import { ShipOrderRequest } from '../order/order-operations.dto';
import { event } from './definition';

/*
 * What warehouse adapters publish (ARCHITECTURE.md: "warehouse adapters ──warehouse events──▶
 * order | inbound | catalog"). Each carries the merchant in its envelope; the payloads are the
 * operators' HTTP bodies plus the record's id, and run through the same use cases.
 */

/** `warehouse.inbound_received.v1`: goods of an inbound order arrived. */
export class WarehouseInboundReceivedEvent extends InboundReceiptRequest {
  @IsId()
  inbound_id!: number;
}

/** `warehouse.inbound_rejected.v1`: the warehouse refused an inbound delivery. */
export class WarehouseInboundRejectedEvent extends RejectInboundRequest {
  @IsId()
  inbound_id!: number;
}

/** `warehouse.order_picking_started.v1`: the warehouse started picking an approved order. */
export class WarehouseOrderPickingStartedEvent {
  @IsId()
  order_id!: number;
}

/** `warehouse.order_shipped.v1`: the order left the warehouse with a carrier. */
export class WarehouseOrderShippedEvent extends ShipOrderRequest {
  @IsId()
  order_id!: number;
}

/** `warehouse.order_cancelled.v1`: the warehouse cancelled an order it was processing. */
export class WarehouseOrderCancelledEvent {
  @IsId()
  order_id!: number;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ORDER_LIMITS.hold_reason)
  reason?: string;
}

/** Published by warehouse adapters; consumed by order-service and inbound-service. */
export const WarehouseEvents = {
  InboundReceived: event('warehouse.inbound_received.v1', WarehouseInboundReceivedEvent),
  InboundRejected: event('warehouse.inbound_rejected.v1', WarehouseInboundRejectedEvent),
  OrderPickingStarted: event(
    'warehouse.order_picking_started.v1',
    WarehouseOrderPickingStartedEvent,
  ),
  OrderShipped: event('warehouse.order_shipped.v1', WarehouseOrderShippedEvent),
  OrderCancelled: event('warehouse.order_cancelled.v1', WarehouseOrderCancelledEvent),
};
