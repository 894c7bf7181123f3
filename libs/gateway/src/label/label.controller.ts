import { Body, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateLabelRequest, LabelTopic, LabelTrackingView, LabelView } from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import { ApiEnvelope, LongId } from '../http/api-envelope';
import { contract, idParam } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { ApiController } from '../http/direct-routes';
import { PublicOrigin } from '../tracking/public-origin';
import { TrackingTokenService } from '../tracking/tracking-token.service';

/** Spec endpoints 1 and 2, and the label record. */
@ApiTags('Labels')
@ApiController('2026-05/cloud/label')
export class LabelController {
  constructor(
    private readonly bus: GatewayBus,
    private readonly trackingTokens: TrackingTokenService,
  ) {}

  /**
   * Create a shipping label; `data` is the new label id. The service must be a carrier service
   * (GET /2025-07/cloud/service) that carries the declared contents (422 otherwise); the label is
   * priced by rating-service.
   */
  @Post()
  @ApiOperation({ summary: 'Create a shipping label' })
  @ApiEnvelope(LongId, { description: 'Created: `data` is the new label id.', errors: [422] })
  create(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Body(contract(CreateLabelRequest)) label: CreateLabelRequest,
  ): Promise<number> {
    return this.bus.call(
      LabelTopic.Create,
      { merchant_id: merchantId, label },
      { key: merchantId, correlationId },
    );
  }

  /**
   * The label's tracking: explicit nulls until a carrier is allocated, checkpoints latest first
   * in UTC. An unknown label is a 404 with the message "Order not found." (the spec's text).
   */
  @Get('tracking/:id')
  @ApiOperation({ summary: 'Label tracking' })
  @ApiParam({ name: 'id', description: 'The label id.', schema: LongId })
  @ApiEnvelope(LabelTrackingView, {
    description: '`data` is the tracking of the label; `checkpoints` are latest first.',
  })
  tracking(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('id', idParam('id')) labelId: number,
  ): Promise<LabelTrackingView> {
    return this.bus.call(
      LabelTopic.GetTracking,
      { merchant_id: merchantId, label_id: labelId },
      { key: labelId, correlationId },
    );
  }

  /** The label record: what was asked for, and what the carrier allocated since. */
  @Get(':id')
  @ApiOperation({ summary: 'Get a label' })
  @ApiParam({ name: 'id', description: 'The label id.', schema: LongId })
  @ApiEnvelope(LabelView, { description: '`data` is the label record.' })
  get(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('id', idParam('id')) labelId: number,
    @PublicOrigin() origin: string,
  ): Promise<LabelView> {
    return this.bus
      .call(
        LabelTopic.Get,
        { merchant_id: merchantId, label_id: labelId },
        { key: labelId, correlationId },
      )
      .then((label) => ({
        ...label,
        tracking_url: this.trackingTokens.urlFor('label', merchantId, label.id, origin),
      }));
  }
}
