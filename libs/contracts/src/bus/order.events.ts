import { IsInt, Min } from 'class-validator';
import { ShipOrderRequest } from '../order/order-operations.dto';
import { ReservationRequestEvent } from './stock.events';

/** `order.created.v1`: a new Draft order; catalog reserves its lines (attempt 1). */
export class OrderCreatedEvent extends ReservationRequestEvent {}

/** `order.reservation_requested.v1`: a released hold asks for the reservation again. */
export class OrderReservationRequestedEvent extends ReservationRequestEvent {}

/** `order.cancelled.v1`: whatever is reserved for the order goes back to available. */
export class OrderCancelledEvent {
  @IsInt()
  @Min(1)
  order_id!: number;
}

/** `order.shipped.v1`: the order left the warehouse; its reserved units leave on-hand. */
export class OrderShippedEvent extends ShipOrderRequest {
  @IsInt()
  @Min(1)
  order_id!: number;
}
