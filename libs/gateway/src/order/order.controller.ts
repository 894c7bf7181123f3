import { ApiOperation, ApiTags, ApiParam } from '@nestjs/swagger';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import {
  CreateOrderRequest,
  HoldOrderRequest,
  OrderPageView,
  OrderTopic,
  OrderView,
  PAGE_LIMITS,
  PageQuery,
  ShipOrderRequest,
  ApiKeyRole,
} from '@consign/contracts';
import { MerchantId, Roles } from '../auth/api-key.auth';
import type { CommandStamp } from '@consign/bus';
import { ApiEnvelope, LongId } from '../http/api-envelope';
import { contract, idParam } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { Command, Idempotent } from '../idempotency/idempotency.hooks';
import { ApiController } from '../http/direct-routes';
import { PublicOrigin } from '../tracking/public-origin';
import { TrackingTokenService } from '../tracking/tracking-token.service';

/**
 * Spec endpoints 5–7, and the operations on an order: the merchant cancels, holds and releases;
 * operators (keys with the operator role, acting on their own merchant account's orders) start
 * picking and ship. Each answers the order as it is after the change.
 */
@ApiTags('Orders')
@ApiController('2025-07/cloud/order')
export class OrderController {
  constructor(
    private readonly bus: GatewayBus,
    private readonly tracking: TrackingTokenService,
  ) {}

  /** Create an order; `data` is the new order id. It starts Draft; stock makes it Approved or OnHold. */
  @Post()
  @ApiOperation({ summary: 'Create an order' })
  @Idempotent()
  @ApiEnvelope(LongId, {
    description:
      'Created: `data` is the new order id (status Draft; stock is reserved asynchronously: Approved or OnHold).',
  })
  create(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Body(contract(CreateOrderRequest)) order: CreateOrderRequest,
  ): Promise<number> {
    return this.bus.call(
      OrderTopic.Create,
      { merchant_id: merchantId, order },
      { key: merchantId, correlationId, command },
    );
  }

  /** A page of the merchant’s orders, newest first. */
  @Get()
  @ApiOperation({ summary: 'List orders' })
  @ApiEnvelope(OrderPageView, {
    description: '`data` is one page of the merchant’s orders, newest first, with the total.',
  })
  list(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Query(contract(PageQuery)) query: PageQuery,
    @PublicOrigin() origin: string,
  ): Promise<OrderPageView> {
    return this.bus
      .call(
        OrderTopic.List,
        {
          merchant_id: merchantId,
          page: query.page ?? PAGE_LIMITS.default_page,
          size: query.size ?? PAGE_LIMITS.default_size,
        },
        { key: merchantId, correlationId },
      )
      .then((page) => ({
        ...page,
        list: page.list.map((order) => this.withTrackingUrl(merchantId, order, origin)),
      }));
  }

  @Get(':order_id')
  @ApiOperation({ summary: 'Get an order' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @ApiEnvelope(OrderView, { description: '`data` is the order.' })
  get(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('order_id', idParam('order_id')) orderId: number,
    @PublicOrigin() origin: string,
  ): Promise<OrderView> {
    return this.bus
      .call(
        OrderTopic.Get,
        { merchant_id: merchantId, order_id: orderId },
        { key: orderId, correlationId },
      )
      .then((order) => this.withTrackingUrl(merchantId, order, origin));
  }

  private withTrackingUrl(merchantId: number, order: OrderView, origin: string): OrderView {
    return { ...order, tracking_url: this.tracking.urlFor('order', merchantId, order.id, origin) };
  }

  /** Cancel a Draft, OnHold or Approved order; its reserved stock is released. */
  @Post(':order_id/cancel')
  @ApiOperation({ summary: 'Cancel an order' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(OrderView, {
    description: '`data` is the cancelled order; reserved stock is released.',
    errors: [409],
  })
  cancel(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('order_id', idParam('order_id')) orderId: number,
  ): Promise<OrderView> {
    return this.bus.call(
      OrderTopic.Cancel,
      { merchant_id: merchantId, order_id: orderId },
      { key: orderId, correlationId, command },
    );
  }

  /** Hold a Draft or Approved order (body optional: `reason`). */
  @Post(':order_id/hold')
  @ApiOperation({ summary: 'Hold an order' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(OrderView, { description: '`data` is the order, now OnHold.', errors: [409] })
  hold(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('order_id', idParam('order_id')) orderId: number,
    @Body(contract(HoldOrderRequest)) hold: HoldOrderRequest,
  ): Promise<OrderView> {
    return this.bus.call(
      OrderTopic.Hold,
      { merchant_id: merchantId, order_id: orderId, hold },
      { key: orderId, correlationId, command },
    );
  }

  /** Release a held order: it is Draft again until its stock is reserved. */
  @Post(':order_id/release')
  @ApiOperation({ summary: 'Release a held order' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(OrderView, {
    description: '`data` is the order; stock reservation is retried.',
    errors: [409],
  })
  release(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('order_id', idParam('order_id')) orderId: number,
  ): Promise<OrderView> {
    return this.bus.call(
      OrderTopic.Release,
      { merchant_id: merchantId, order_id: orderId },
      { key: orderId, correlationId, command },
    );
  }

  /** Operators: the warehouse starts picking an Approved order (Processing). */
  @Post(':order_id/pick')
  @ApiOperation({ summary: 'Start picking an order (operators)' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(OrderView, {
    description: '`data` is the order, now Processing.',
    errors: [403, 409],
  })
  @Roles(ApiKeyRole.Operator)
  pick(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('order_id', idParam('order_id')) orderId: number,
  ): Promise<OrderView> {
    return this.bus.call(
      OrderTopic.Pick,
      { merchant_id: merchantId, order_id: orderId },
      { key: orderId, correlationId, command },
    );
  }

  /** Operators: the order left the warehouse (Fulfilled); its stock is deducted. */
  @Post(':order_id/ship')
  @ApiOperation({ summary: 'Ship an order (operators)' })
  @ApiParam({ name: 'order_id', description: 'The order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(OrderView, {
    description: '`data` is the order, now Fulfilled.',
    errors: [403, 409],
  })
  @Roles(ApiKeyRole.Operator)
  ship(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('order_id', idParam('order_id')) orderId: number,
    @Body(contract(ShipOrderRequest)) shipment: ShipOrderRequest,
  ): Promise<OrderView> {
    return this.bus.call(
      OrderTopic.Ship,
      { merchant_id: merchantId, order_id: orderId, shipment },
      { key: orderId, correlationId, command },
    );
  }
}
