import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  LabelEvents,
  OrderCommands,
  OrderPageView,
  OrderStateView,
  OrderView,
  Reply,
  StockEvents,
  WarehouseEvents,
} from '@consign/contracts';
import { CommandLedger, Inbox, handleCommand, handleEvent } from '@consign/messaging';
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
    @Inject(orderDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  private get messaging() {
    return { inbox: this.inbox, consumer: ORDER_CONSUMER };
  }

  @MessagePattern(OrderCommands.Create.topic)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(
      OrderCommands.Create,
      payload,
      (c) => this.orders.create(c.merchant_id, c.order),
      this.commands,
    );
  }

  @MessagePattern(OrderCommands.Get.topic)
  get(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(OrderCommands.Get, payload, (q) =>
      this.orders.get(q.merchant_id, q.order_id),
    );
  }

  @MessagePattern(OrderCommands.List.topic)
  list(@Payload() payload: unknown): Promise<Reply<OrderPageView>> {
    return handleCommand(OrderCommands.List, payload, (q) =>
      this.orders.list(q.merchant_id, q.page, q.size),
    );
  }

  @MessagePattern(OrderCommands.States.topic)
  states(@Payload() payload: unknown): Promise<Reply<OrderStateView[]>> {
    return handleCommand(OrderCommands.States, payload, (q) =>
      this.orders.states(q.merchant_id, q.order_ids),
    );
  }

  @MessagePattern(OrderCommands.Cancel.topic)
  cancel(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommands.Cancel,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.cancel(m, c.merchant_id, c.order_id, OrderActor.Merchant),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderCommands.Hold.topic)
  hold(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommands.Hold,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.hold(m, c.merchant_id, c.order_id, c.hold.reason),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderCommands.Release.topic)
  release(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommands.Release,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.release(m, c.merchant_id, c.order_id),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderCommands.Pick.topic)
  pick(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommands.Pick,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.pick(m, c.merchant_id, c.order_id),
        ),
      this.commands,
    );
  }

  @MessagePattern(OrderCommands.Ship.topic)
  ship(@Payload() payload: unknown): Promise<Reply<OrderView>> {
    return handleCommand(
      OrderCommands.Ship,
      payload,
      (c) =>
        this.lifecycle.apply(c.merchant_id, c.order_id, (m) =>
          this.lifecycle.ship(m, c.merchant_id, c.order_id, c.shipment),
        ),
      this.commands,
    );
  }

  @EventPattern(StockEvents.Reserved.topic)
  onReserved(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, StockEvents.Reserved, raw, (m, merchantId, event) =>
      this.lifecycle.reserved(m, merchantId, event),
    );
  }

  @EventPattern(StockEvents.ReservationFailed.topic)
  onReservationFailed(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, StockEvents.ReservationFailed, raw, (m, merchantId, event) =>
      this.lifecycle.reservationFailed(m, merchantId, event),
    );
  }

  @EventPattern(WarehouseEvents.OrderPickingStarted.topic)
  onPickingStarted(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvents.OrderPickingStarted,
      raw,
      (m, merchantId, event) => this.lifecycle.pick(m, merchantId, event.order_id),
    );
  }

  @EventPattern(WarehouseEvents.OrderShipped.topic)
  onShipped(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, WarehouseEvents.OrderShipped, raw, (m, merchantId, event) =>
      this.lifecycle.ship(m, merchantId, event.order_id, event),
    );
  }

  @EventPattern(WarehouseEvents.OrderCancelled.topic)
  onWarehouseCancelled(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      WarehouseEvents.OrderCancelled,
      raw,
      (m, merchantId, event) =>
        this.lifecycle.cancel(m, merchantId, event.order_id, OrderActor.Warehouse),
    );
  }

  /** label-tracking saw the order's shipments delivered: the order is Completed. */
  @EventPattern(LabelEvents.ShipmentDelivered.topic)
  onShipmentDelivered(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      LabelEvents.ShipmentDelivered,
      raw,
      async (m, merchantId, event) => {
        if (event.all_delivered) await this.lifecycle.delivered(m, merchantId, event.order_id);
      },
    );
  }
}
