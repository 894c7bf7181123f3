import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CatalogCommands,
  InboundEvents,
  InventoryPageView,
  OrderEvents,
  Reply,
  ResolvedVariant,
  StockReconciliationReport,
} from '@consign/contracts';
import { Inbox, handleCommand, handleEvent } from '@consign/messaging';
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
  ) {}

  private get messaging() {
    return { inbox: this.inbox, consumer: CATALOG_CONSUMER };
  }

  @MessagePattern(CatalogCommands.ListInventory.topic)
  inventory(@Payload() payload: unknown): Promise<Reply<InventoryPageView>> {
    return handleCommand(CatalogCommands.ListInventory, payload, (q) =>
      this.stock.inventory(q.merchant_id, q.query),
    );
  }

  @MessagePattern(CatalogCommands.ResolveVariants.topic)
  resolve(@Payload() payload: unknown): Promise<Reply<ResolvedVariant[]>> {
    return handleCommand(CatalogCommands.ResolveVariants, payload, (q) =>
      this.stock.resolve(q.merchant_id, q.sku_numbers),
    );
  }

  @MessagePattern(CatalogCommands.ReconcileStock.topic)
  reconcile(@Payload() payload: unknown): Promise<Reply<StockReconciliationReport>> {
    return handleCommand(CatalogCommands.ReconcileStock, payload, (c) =>
      this.reconciler.reconcile(c.merchant_id),
    );
  }

  @EventPattern(OrderEvents.Created.topic)
  onOrderCreated(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, OrderEvents.Created, raw, (m, merchantId, event) =>
      this.reservations.reserve(m, merchantId, event),
    );
  }

  @EventPattern(OrderEvents.ReservationRequested.topic)
  onReservationRequested(@Payload() raw: unknown): Promise<void> {
    return handleEvent(
      this.messaging,
      OrderEvents.ReservationRequested,
      raw,
      (m, merchantId, event) => this.reservations.reserve(m, merchantId, event),
    );
  }

  @EventPattern(OrderEvents.Cancelled.topic)
  onOrderCancelled(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, OrderEvents.Cancelled, raw, (m, merchantId, event) =>
      this.reservations.release(m, merchantId, event.order_id),
    );
  }

  @EventPattern(OrderEvents.Shipped.topic)
  onOrderShipped(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, OrderEvents.Shipped, raw, (m, merchantId, event) =>
      this.reservations.deduct(m, merchantId, event.order_id),
    );
  }

  @EventPattern(InboundEvents.Received.topic)
  onInboundReceived(@Payload() raw: unknown): Promise<void> {
    return handleEvent(this.messaging, InboundEvents.Received, raw, (m, merchantId, event) =>
      this.stock.receive(m, merchantId, event),
    );
  }
}
