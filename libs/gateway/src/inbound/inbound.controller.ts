import { ApiOperation, ApiTags, ApiParam } from '@nestjs/swagger';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import {
  CreateInboundRequest,
  InboundOrderView,
  InboundPageView,
  InboundReceiptRequest,
  InboundTopic,
  PAGE_LIMITS,
  PageQuery,
  RejectInboundRequest,
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

/**
 * Spec endpoints 9–11, and the operations on an inbound order: the merchant cancels; operators
 * (operator keys, on their own merchant account's records) record receipts and reject deliveries.
 */
@ApiTags('Inbound orders')
@ApiController('2025-07/cloud/inbound')
export class InboundController {
  constructor(private readonly bus: GatewayBus) {}

  /** Announce goods on their way to a warehouse; `data` is the new inbound order id. */
  @Post()
  @ApiOperation({ summary: 'Create an inbound order' })
  @Idempotent()
  @ApiEnvelope(LongId, {
    description: 'Created: `data` is the new inbound order id (status Pending).',
  })
  create(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Body(contract(CreateInboundRequest)) inbound: CreateInboundRequest,
  ): Promise<number> {
    return this.bus.call(
      InboundTopic.Create,
      { merchant_id: merchantId, inbound },
      { key: merchantId, correlationId, command },
    );
  }

  /** A page of the merchant’s inbound orders, newest first. */
  @Get()
  @ApiOperation({ summary: 'List inbound orders' })
  @ApiEnvelope(InboundPageView, {
    description:
      '`data` is one page of the merchant’s inbound orders, newest first, with the total.',
  })
  list(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Query(contract(PageQuery)) query: PageQuery,
  ): Promise<InboundPageView> {
    return this.bus.call(
      InboundTopic.List,
      {
        merchant_id: merchantId,
        page: query.page ?? PAGE_LIMITS.default_page,
        size: query.size ?? PAGE_LIMITS.default_size,
      },
      { key: merchantId, correlationId },
    );
  }

  @Get(':inbound_id')
  @ApiOperation({ summary: 'Get an inbound order' })
  @ApiParam({ name: 'inbound_id', description: 'The inbound order id.', schema: LongId })
  @ApiEnvelope(InboundOrderView, { description: '`data` is the inbound order.' })
  get(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('inbound_id', idParam('inbound_id')) inboundId: number,
  ): Promise<InboundOrderView> {
    return this.bus.call(
      InboundTopic.Get,
      { merchant_id: merchantId, inbound_id: inboundId },
      { key: inboundId, correlationId },
    );
  }

  /** Cancel a Pending inbound order. */
  @Post(':inbound_id/cancel')
  @ApiOperation({ summary: 'Cancel an inbound order' })
  @ApiParam({ name: 'inbound_id', description: 'The inbound order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(InboundOrderView, {
    description: '`data` is the cancelled inbound order.',
    errors: [409],
  })
  cancel(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('inbound_id', idParam('inbound_id')) inboundId: number,
  ): Promise<InboundOrderView> {
    return this.bus.call(
      InboundTopic.Cancel,
      { merchant_id: merchantId, inbound_id: inboundId },
      { key: inboundId, correlationId, command },
    );
  }

  /** Operators: goods arrived (Partial or Completed); they go on hand at the warehouse. */
  @Post(':inbound_id/receipt')
  @ApiOperation({ summary: 'Record an inbound receipt (operators)' })
  @ApiParam({ name: 'inbound_id', description: 'The inbound order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(InboundOrderView, {
    description: '`data` is the inbound order with the received quantities.',
    errors: [403, 409],
  })
  @Roles(ApiKeyRole.Operator)
  receipt(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('inbound_id', idParam('inbound_id')) inboundId: number,
    @Body(contract(InboundReceiptRequest)) receipt: InboundReceiptRequest,
  ): Promise<InboundOrderView> {
    return this.bus.call(
      InboundTopic.RecordReceipt,
      { merchant_id: merchantId, inbound_id: inboundId, receipt },
      { key: inboundId, correlationId, command },
    );
  }

  /** Operators: the warehouse refuses a Pending delivery (Failure). */
  @Post(':inbound_id/reject')
  @ApiOperation({ summary: 'Reject an inbound delivery (operators)' })
  @ApiParam({ name: 'inbound_id', description: 'The inbound order id.', schema: LongId })
  @Idempotent()
  @ApiEnvelope(InboundOrderView, {
    description: '`data` is the inbound order, now Failure.',
    errors: [403, 409],
  })
  @Roles(ApiKeyRole.Operator)
  reject(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('inbound_id', idParam('inbound_id')) inboundId: number,
    @Body(contract(RejectInboundRequest)) rejection: RejectInboundRequest,
  ): Promise<InboundOrderView> {
    return this.bus.call(
      InboundTopic.Reject,
      { merchant_id: merchantId, inbound_id: inboundId, rejection },
      { key: inboundId, correlationId, command },
    );
  }
}
