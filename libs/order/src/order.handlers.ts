import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateOrderCommand,
  HoldOrderCommand,
  LabelEvent,
  ListOrdersQuery,
  OrderCommand,
  OrderPageView,
  OrderStateView,
  OrderStatesQuery,
  OrderTopic,
  OrderView,
  Reply,
  ShipOrderCommand,
  ShipmentDeliveredEvent,
  StockEvent,
  StockReservationFailedEvent,
  StockReservedEvent,
  WarehouseEvent,
  WarehouseOrderCancelledEvent,
  WarehouseOrderPickingStartedEvent,
  WarehouseOrderShippedEvent,
} from '@consign/contracts';
import { CommandLedger, Inbox, Outbox, handleCommand, handleEvent } from '@consign/platform';
import { orderDatabase } from './order.database';
import { OrderLifecycle } from './order-lifecycle.service';
import { OrderService } from './order.service';
import { OrderActor } from './order.transitions';

/** The consumer name of order-service's inbox. */
export const ORDER_CONSUMER = 'order-service';

/** order-service's bus interface: thin, validate and delegate. */
@Controller()
export class OrderHandlers {
  constructor(
    private readonly orders: OrderService,
    private readonly lifecycle: OrderLifecycle,
    @Inject(orderDatabase.inbox) private readonly inbox: Inbox,
    @Inject(orderDatabase.outbox) private readonly outbox: Outbox,
    @Inject(orderDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  private get messaging() {
    return { inbox: this.inbox, outbox: this.outbox, consumer: ORDER_CONSUMER };
  }

  @MessagePattern(OrderTopic.Create)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(
      CreateOrderCommand,
      payload,
      (c) => this.orders.create(c.merchant_id, c.order),
      this.commands,
    );
  }

  @MessagePattern(OrderTopic.Get)
  get(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(OrderCommand, payload, (q) => this.orders.get(q.merchant_id, q.order_id));
  }

  @MessagePattern(OrderTopic.List)
  list(@Payload() payload: unknown): Promise<Reply<OrderPageView>> {
    return handleCommand(ListOrdersQuery, payload, (q) =>
      this.orders.list(q.merchant_id, q.page, q.size),
    );
  }

  @MessagePattern(OrderTopic.States)
  states(@Payload() payload: unknown): Promise<Reply<OrderStateView[]>> {
    return handleCommand(OrderStatesQuery, payload, (q) =>
      this.orders.states(q.merchant_id, q.order_ids),
    );
  }

  @MessagePattern(OrderTopic.Cancel)
  cancel(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommand,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.cancel(m, c.merchant_id, c.order_id, OrderActor.Merchant),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderTopic.Hold)
  hold(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      HoldOrderCommand,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.hold(m, c.merchant_id, c.order_id, c.hold.reason),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderTopic.Release)
  release(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommand,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.release(m, c.merchant_id, c.order_id),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderTopic.Pick)
  pick(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommand,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.pick(m, c.merchant_id, c.order_id),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderTopic.Ship)
  ship(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      ShipOrderCommand,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.ship(m, c.merchant_id, c.order_id, c.shipment),
        ),
      this.commands,
    );
  }

  @EventPattern(StockEvent.Reserved)
  onReserved(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      StockEvent.Reserved,
      StockReservedEvent,
      raw,
      (m, merchantId, event) => this.lifecycle.reserved(m, merchantId, event),
    );
  }

  @EventPattern(StockEvent.ReservationFailed)
  onReservationFailed(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      StockEvent.ReservationFailed,
      StockReservationFailedEvent,
      raw,
      (m, merchantId, event) => this.lifecycle.reservationFailed(m, merchantId, event),
    );
  }

  @EventPattern(WarehouseEvent.OrderPickingStarted)
  onPickingStarted(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvent.OrderPickingStarted,
      WarehouseOrderPickingStartedEvent,
      raw,
      (m, merchantId, event) => this.lifecycle.pick(m, merchantId, event.order_id),
    );
  }

  @EventPattern(WarehouseEvent.OrderShipped)
  onShipped(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvent.OrderShipped,
      WarehouseOrderShippedEvent,
      raw,
      (m, merchantId, event) => this.lifecycle.ship(m, merchantId, event.order_id, event),
    );
  }

  @EventPattern(WarehouseEvent.OrderCancelled)
  onWarehouseCancelled(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvent.OrderCancelled,
      WarehouseOrderCancelledEvent,
      raw,
      (m, merchantId, event) =>
        this.lifecycle.cancel(m, merchantId, event.order_id, OrderActor.Warehouse),
    );
  }

  /** label-tracking saw the order's shipments delivered: the order is Completed. */
  @EventPattern(LabelEvent.ShipmentDelivered)
  onShipmentDelivered(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      LabelEvent.ShipmentDelivered,
      ShipmentDeliveredEvent,
      raw,
      async (m, merchantId, event) => {
        if (event.all_delivered) await this.lifecycle.delivered(m, merchantId, event.order_id);
      },
    );
  }
}
