import { IsEnum, IsObject, IsOptional } from 'class-validator';
import { IsId } from '../common/formats';
import { OrderStatus } from '../order/order-status';
import { OrderView } from '../order/order-view.dto';
import { ShipOrderRequest } from '../order/order-operations.dto';
import { event } from './definition';
import { ReservationRequestEvent } from './stock.events';

/** `order.created.v1`: a new Draft order; catalog reserves its lines (attempt 1). */
export class OrderCreatedEvent extends ReservationRequestEvent {}

/** `order.reservation_requested.v1`: a released hold asks for the reservation again. */
export class OrderReservationRequestedEvent extends ReservationRequestEvent {}

/** `order.cancelled.v1`: whatever is reserved for the order goes back to available. */
export class OrderCancelledEvent {
  @IsId()
  order_id!: number;
}

/** `order.shipped.v1`: the order left the warehouse; its reserved units leave on-hand. */
export class OrderShippedEvent extends ShipOrderRequest {
  @IsId()
  order_id!: number;
}

/**
 * `order.status_changed.v1`: an order was created or changed status; it carries the order as
 * the API returns it after the change (read in the same transaction), for webhooks.
 */
export class OrderStatusChangedEvent {
  @IsId()
  order_id!: number;

  /** Null for a new order. */
  @IsOptional()
  @IsEnum(OrderStatus)
  previous_status!: OrderStatus | null;

  @IsEnum(OrderStatus)
  status!: OrderStatus;

  @IsObject()
  order!: OrderView;
}

/** order-service's domain events. */
export const OrderEvents = {
  Created: event('order.created.v1', OrderCreatedEvent),
  ReservationRequested: event('order.reservation_requested.v1', OrderReservationRequestedEvent),
  Cancelled: event('order.cancelled.v1', OrderCancelledEvent),
  Shipped: event('order.shipped.v1', OrderShippedEvent),
  StatusChanged: event('order.status_changed.v1', OrderStatusChangedEvent),
};
