import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  OrderEvent,
  OrderStatus,
  OrderView,
  ShipOrderRequest,
  StockReservationFailedEvent,
  StockReservedEvent,
} from '@consign/contracts';
import { CommandLedger, Outbox } from '@consign/messaging';
import { orderDatabase } from './order.database';
import { OrderRepository, OrderState } from './order.repository';
import { orderNotFound } from './order.service';
import { OrderActor, assertTransition } from './order.transitions';
import { orderStatusChanged } from './order-status-events';

const HELD_BY_MERCHANT = 'Held by the merchant.';

/**
 * Every change of an order's state, whoever asks: the merchant and operators over HTTP, warehouse
 * adapters and the stock saga through events. Each use case runs in the caller's transaction
 * (`manager`): the HTTP path opens one with `apply`, the event path is inside the Inbox's, so
 * the inbox row, the change and its outbox event commit together.
 */
@Injectable()
export class OrderLifecycle {
  private readonly logger = new Logger('OrderLifecycle');

  constructor(
    @Inject(orderDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(orderDatabase.outbox) private readonly outbox: Outbox,
    @Inject(orderDatabase.commands) private readonly commands: CommandLedger,
    private readonly orders: OrderRepository,
  ) {}

  /**
   * Runs a use case in its own transaction and answers the order as it is after it (as the use
   * case's change returned it, or read when it changed nothing); the command being handled is
   * recorded in the same transaction (CommandLedger).
   */
  async apply(
    merchantId: number,
    orderId: number,
    change: (manager: EntityManager) => Promise<OrderView | undefined | void>,
  ): Promise<OrderView> {
    const view = await this.commands.transaction(async (manager) => {
      const changed = await change(manager);
      if (changed) return changed;
      const after = await this.orders.view(manager, merchantId, orderId);
      if (!after) throw orderNotFound();
      return after;
    });
    return view;
  }

  /** Cancels the order; catalog-service gives back whatever was reserved for it. */
  async cancel(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
    by: OrderActor,
  ): Promise<OrderView> {
    const order = await this.move(manager, merchantId, orderId, OrderStatus.Cancelled, by);
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.Cancelled,
    });
    await this.outbox.addAll(manager, [
      orderStatusChanged(merchantId, after, order.status),
      {
        topic: OrderEvent.Cancelled,
        merchantId,
        aggregateId: order.id,
        payload: { order_id: order.id },
      },
    ]);
    return after;
  }

  /** The merchant stops the order; its reservation, if any, is kept until release or cancel. */
  async hold(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
    reason: string | undefined,
  ): Promise<OrderView> {
    const order = await this.move(
      manager,
      merchantId,
      orderId,
      OrderStatus.OnHold,
      OrderActor.Merchant,
    );
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.OnHold,
      hold_reason: reason ?? HELD_BY_MERCHANT,
    });
    return this.changed(manager, merchantId, after, order.status);
  }

  /**
   * Releases a hold: the order is Draft again and asks for its reservation once more, with a new
   * attempt number (answers to older attempts are then ignored).
   */
  async release(manager: EntityManager, merchantId: number, orderId: number): Promise<OrderView> {
    const order = await this.move(
      manager,
      merchantId,
      orderId,
      OrderStatus.Draft,
      OrderActor.Merchant,
    );
    const attempt = order.reservation_attempt + 1;
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.Draft,
      reservation_attempt: attempt,
    });
    await this.outbox.addAll(manager, [
      orderStatusChanged(merchantId, after, order.status),
      {
        topic: OrderEvent.ReservationRequested,
        merchantId,
        aggregateId: order.id,
        payload: {
          order_id: order.id,
          attempt,
          warehouse_code: order.warehouse_code,
          lines: after.sku_items.map((item) => ({
            sku_number: item.sku_number,
            quantity: item.quantity,
          })),
        },
      },
    ]);
    return after;
  }

  /** The warehouse starts picking. */
  async pick(manager: EntityManager, merchantId: number, orderId: number): Promise<OrderView> {
    const order = await this.move(
      manager,
      merchantId,
      orderId,
      OrderStatus.Processing,
      OrderActor.Warehouse,
    );
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.Processing,
    });
    return this.changed(manager, merchantId, after, order.status);
  }

  /** The order left the warehouse; catalog-service deducts its reserved units from on-hand. */
  async ship(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
    shipment: ShipOrderRequest,
  ): Promise<OrderView> {
    const order = await this.move(
      manager,
      merchantId,
      orderId,
      OrderStatus.Fulfilled,
      OrderActor.Warehouse,
    );
    const { carrier, tracking_number, packages } = shipment;
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.Fulfilled,
      shipment: { carrier, tracking_number, packages },
    });
    await this.outbox.addAll(manager, [
      orderStatusChanged(merchantId, after, order.status),
      {
        topic: OrderEvent.Shipped,
        merchantId,
        aggregateId: order.id,
        payload: { order_id: order.id, carrier, tracking_number, packages },
      },
    ]);
    return after;
  }

  /**
   * Every shipment of the order was delivered (label.shipment.delivered.v1 with all_delivered):
   * the carrier completes it. Idempotent: an order already Completed stays so; one that is not
   * Fulfilled (a stale or stray announcement) is left alone and logged.
   */
  async delivered(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
  ): Promise<OrderView | undefined> {
    const order = await this.orders.lock(manager, merchantId, orderId);
    if (!order) throw orderNotFound();
    if (order.status === OrderStatus.Completed) return undefined;
    if (order.status !== OrderStatus.Fulfilled) {
      this.logger.warn(`order ${order.id}: delivered while ${order.status}; left as it is`);
      return undefined;
    }
    assertTransition(order.id, order.status, OrderStatus.Completed, OrderActor.Carrier);
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.Completed,
    });
    return this.changed(manager, merchantId, after, order.status);
  }

  /** The saga's answer: every line reserved. */
  async reserved(
    manager: EntityManager,
    merchantId: number,
    event: StockReservedEvent,
  ): Promise<OrderView | undefined> {
    const order = await this.awaitingReservation(manager, merchantId, event);
    if (!order) return undefined;
    assertTransition(order.id, order.status, OrderStatus.Approved, OrderActor.Stock);
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.Approved,
      warehouse_code: event.warehouse_code,
      issued: true,
    });
    return this.changed(manager, merchantId, after, order.status);
  }

  /** The saga's answer: nothing reserved; the order waits, with the reason, for a release. */
  async reservationFailed(
    manager: EntityManager,
    merchantId: number,
    event: StockReservationFailedEvent,
  ): Promise<OrderView | undefined> {
    const order = await this.awaitingReservation(manager, merchantId, event);
    if (!order) return undefined;
    assertTransition(order.id, order.status, OrderStatus.OnHold, OrderActor.Stock);
    const after = await this.orders.update(manager, order.id, {
      status: OrderStatus.OnHold,
      hold_reason: event.message,
    });
    return this.changed(manager, merchantId, after, order.status);
  }

  /**
   * The order, when it is still waiting for this very attempt; otherwise the answer is stale (a
   * duplicate, an older attempt, or the order moved on meanwhile) and changes nothing.
   */
  private async awaitingReservation(
    manager: EntityManager,
    merchantId: number,
    event: { order_id: number; attempt: number },
  ): Promise<OrderState | undefined> {
    const order = await this.orders.lock(manager, merchantId, event.order_id);
    if (!order) throw orderNotFound();
    if (order.status === OrderStatus.Draft && order.reservation_attempt === event.attempt)
      return order;
    this.logger.log(
      `order ${order.id}: ignoring the answer to reservation attempt ${event.attempt} (now ${order.status}, attempt ${order.reservation_attempt})`,
    );
    return undefined;
  }

  /** Announces the change (`order.status_changed.v1`) and answers the order after it. */
  private async changed(
    manager: EntityManager,
    merchantId: number,
    after: OrderView,
    previous: OrderStatus,
  ): Promise<OrderView> {
    await this.outbox.addAll(manager, [orderStatusChanged(merchantId, after, previous)]);
    return after;
  }

  private async move(
    manager: EntityManager,
    merchantId: number,
    orderId: number,
    to: OrderStatus,
    by: OrderActor,
  ): Promise<OrderState> {
    const order = await this.orders.lock(manager, merchantId, orderId);
    if (!order) throw orderNotFound();
    assertTransition(order.id, order.status, to, by);
    return order;
  }
}
