import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CatalogTopic,
  InboundEvent,
  InboundReceivedEvent,
  InventoryPageView,
  ListInventoryQuery,
  OrderCancelledEvent,
  OrderCreatedEvent,
  OrderEvent,
  OrderReservationRequestedEvent,
  OrderShippedEvent,
  ReconcileStockCommand,
  Reply,
  ResolveVariantsQuery,
  ResolvedVariant,
  StockReconciliationReport,
} from '@consign/contracts';
import { Inbox, Outbox, handleCommand, handleEvent } from '@consign/platform';
import { catalogDatabase } from './catalog.database';
import { StockReconciler } from './stock-reconciler';
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
    private readonly reconciler: StockReconciler,
    @Inject(catalogDatabase.inbox) private readonly inbox: Inbox,
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
  ) {}

  private get messaging() {
    return { inbox: this.inbox, outbox: this.outbox, consumer: CATALOG_CONSUMER };
  }

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

  @MessagePattern(CatalogTopic.ReconcileStock)
  reconcile(@Payload() payload: unknown): Promise<Reply<StockReconciliationReport>> {
    return handleCommand(ReconcileStockCommand, payload, (c) =>
      this.reconciler.reconcile(c.merchant_id),
    );
  }

  @EventPattern(OrderEvent.Created)
  onOrderCreated(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      OrderEvent.Created,
      OrderCreatedEvent,
      raw,
      (m, merchantId, event) => this.reservations.reserve(m, merchantId, event),
    );
  }

  @EventPattern(OrderEvent.ReservationRequested)
  onReservationRequested(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      OrderEvent.ReservationRequested,
      OrderReservationRequestedEvent,
      raw,
      (m, merchantId, event) => this.reservations.reserve(m, merchantId, event),
    );
  }

  @EventPattern(OrderEvent.Cancelled)
  onOrderCancelled(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      OrderEvent.Cancelled,
      OrderCancelledEvent,
      raw,
      (m, merchantId, event) => this.reservations.release(m, merchantId, event.order_id),
    );
  }

  @EventPattern(OrderEvent.Shipped)
  onOrderShipped(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      OrderEvent.Shipped,
      OrderShippedEvent,
      raw,
      (m, merchantId, event) => this.reservations.deduct(m, merchantId, event.order_id),
    );
  }

  @EventPattern(InboundEvent.Received)
  onInboundReceived(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      InboundEvent.Received,
      InboundReceivedEvent,
      raw,
      (m, merchantId, event) => this.stock.receive(m, merchantId, event),
    );
  }
}
