import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CreateOrderRequest,
  OrderErrorCode,
  OrderEvent,
  OrderPageView,
  OrderStateView,
  OrderView,
} from '@consign/contracts';
import { CommandLedger, Outbox } from '@consign/messaging';
import { DomainError } from '@consign/core';
import { orderDatabase } from './order.database';
import { orderServiceProblems } from './order.references';
import { orderStatusChanged } from './order-status-events';
import { OrderRepository } from './order.repository';
import { RatingClient } from '@consign/rating-client';

/** Creating and reading orders. State changes are OrderLifecycle's. */
@Injectable()
export class OrderService {
  constructor(
    @Inject(orderDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(orderDatabase.outbox) private readonly outbox: Outbox,
    @Inject(orderDatabase.commands) private readonly commands: CommandLedger,
    private readonly reference: RatingClient,
    private readonly orders: OrderRepository,
  ) {}

  /**
   * A new order is Draft; `order.created.v1` asks catalog-service to reserve its lines, and the
   * answer makes it Approved or OnHold. Codes are checked before the transaction opens.
   */
  async create(merchantId: number, request: CreateOrderRequest): Promise<number> {
    await this.checkReferences(merchantId, request);
    const orderId = await this.commands.transaction(async (manager) => {
      const order = await this.orders.insert(manager, merchantId, request);
      // Both events in one statement, `order.created.v1` first.
      await this.outbox.addAll(manager, [
        {
          topic: OrderEvent.Created,
          merchantId,
          aggregateId: order.id,
          payload: {
            order_id: order.id,
            attempt: 1,
            warehouse_code: request.service?.warehouse_code ?? null,
            lines: request.sku_items.map((item) => ({
              sku_number: item.sku_number,
              quantity: item.quantity,
            })),
          },
        },
        orderStatusChanged(merchantId, order, null),
      ]);
      await this.orders.counted(manager, merchantId);
      return order.id;
    });
    return orderId;
  }

  async get(merchantId: number, orderId: number): Promise<OrderView> {
    const view = await this.orders.view(this.dataSource, merchantId, orderId);
    if (!view) throw orderNotFound();
    return view;
  }

  /** The states of those of these orders the merchant has (for stock reconciliation). */
  states(merchantId: number, orderIds: number[]): Promise<OrderStateView[]> {
    return this.orders.states(this.dataSource, merchantId, orderIds);
  }

  async list(merchantId: number, page: number, size: number): Promise<OrderPageView> {
    const total = await this.orders.count(this.dataSource, merchantId);
    const list = await this.orders.page(this.dataSource, merchantId, page, size, total);
    return { page, size, total, list };
  }

  private async checkReferences(merchantId: number, request: CreateOrderRequest): Promise<void> {
    const service = request.service;
    if (!service) return;
    const [warehouses, services] = await Promise.all([
      service.warehouse_code !== undefined ? this.reference.warehouses(merchantId) : undefined,
      service.service_code !== undefined ? this.reference.services(merchantId) : undefined,
    ]);
    const problems = orderServiceProblems(service, warehouses, services);
    if (problems.length)
      throw new DomainError(
        OrderErrorCode.UnknownReference,
        `Validation failed: ${problems.join('; ')}`,
      );
  }
}

export function orderNotFound(): DomainError {
  return new DomainError(OrderErrorCode.OrderNotFound, 'Order not found.');
}
