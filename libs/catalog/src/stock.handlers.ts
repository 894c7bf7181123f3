import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { EntityManager } from 'typeorm';
import { ClassConstructor } from 'class-transformer';
import {
  CatalogTopic,
  EventPayload,
  EventTopic,
  InboundEvent,
  InboundReceivedEvent,
  InventoryPageView,
  ListInventoryQuery,
  OrderCancelledEvent,
  OrderCreatedEvent,
  OrderEvent,
  OrderReservationRequestedEvent,
  OrderShippedEvent,
  Reply,
  ResolveVariantsQuery,
  ResolvedVariant,
} from '@consign/contracts';
import { Inbox, Outbox, handleCommand } from '@consign/platform';
import { catalogDatabase } from './catalog.database';
import { StockReservationService } from './stock-reservation.service';
import { StockService } from './stock.service';

/** The consumer name of catalog-service's inbox. */
export const CATALOG_CONSUMER = 'catalog-service';

/** catalog-service's stock: the saga's events in, inventory and variant lookups out. */
@Controller()
export class StockHandlers {
  constructor(
    private readonly stock: StockService,
    private readonly reservations: StockReservationService,
    @Inject(catalogDatabase.inbox) private readonly inbox: Inbox,
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
  ) {}

  @MessagePattern(CatalogTopic.ListInventory)
  inventory(@Payload() payload: unknown): Promise<Reply<InventoryPageView>> {
    return handleCommand(ListInventoryQuery, payload, (q) =>
      this.stock.inventory(q.merchant_id, q.query),
    );
  }

  @MessagePattern(CatalogTopic.ResolveVariants)
  resolve(@Payload() payload: unknown): Promise<Reply<ResolvedVariant[]>> {
    return handleCommand(ResolveVariantsQuery, payload, (q) =>
      this.stock.resolve(q.merchant_id, q.sku_numbers),
    );
  }

  @EventPattern(OrderEvent.Created)
  onOrderCreated(@Payload() raw: unknown): Promise<void> {
    return this.consume(OrderEvent.Created, OrderCreatedEvent, raw, (m, merchantId, event) =>
      this.reservations.reserve(m, merchantId, event),
    );
  }

  @EventPattern(OrderEvent.ReservationRequested)
  onReservationRequested(@Payload() raw: unknown): Promise<void> {
    return this.consume(
      OrderEvent.ReservationRequested,
      OrderReservationRequestedEvent,
      raw,
      (m, merchantId, event) => this.reservations.reserve(m, merchantId, event),
    );
  }

  @EventPattern(OrderEvent.Cancelled)
  onOrderCancelled(@Payload() raw: unknown): Promise<void> {
    return this.consume(OrderEvent.Cancelled, OrderCancelledEvent, raw, (m, merchantId, event) =>
      this.reservations.release(m, merchantId, event.order_id),
    );
  }

  @EventPattern(OrderEvent.Shipped)
  onOrderShipped(@Payload() raw: unknown): Promise<void> {
    return this.consume(OrderEvent.Shipped, OrderShippedEvent, raw, (m, merchantId, event) =>
      this.reservations.deduct(m, merchantId, event.order_id),
    );
  }

  @EventPattern(InboundEvent.Received)
  onInboundReceived(@Payload() raw: unknown): Promise<void> {
    return this.consume(InboundEvent.Received, InboundReceivedEvent, raw, (m, merchantId, event) =>
      this.stock.receive(m, merchantId, event),
    );
  }

  /** Once per event (the inbox), in one transaction with its effects; then publish them. */
  private async consume<K extends EventTopic>(
    topic: K,
    contract: ClassConstructor<EventPayload<K>>,
    raw: unknown,
    apply: (manager: EntityManager, merchantId: number, payload: EventPayload<K>) => Promise<void>,
  ): Promise<void> {
    await this.inbox.consume(
      CATALOG_CONSUMER,
      topic,
      raw,
      (manager, event) => apply(manager, event.merchant_id, event.payload),
      { contract },
    );
    this.outbox.nudge();
  }
}
