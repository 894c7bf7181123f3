import { Body, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiExtension,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  CreateLabelRequest,
  LabelDocumentFormat,
  LabelDocumentQuery,
  LabelDocumentType,
  LabelTopic,
  LabelTrackingView,
  LabelView,
} from '@consign/contracts';
import { MerchantId } from '../auth/api-key.auth';
import type { CommandStamp } from '@consign/bus';
import { ApiEnvelope, ApiErrors, LongId } from '../http/api-envelope';
import { contract, idParam } from '../http/contract.pipe';
import { CorrelationId } from '../http/request-context';
import { GatewayBus } from '../http/gateway-bus';
import { Command, Idempotent } from '../idempotency/idempotency.hooks';
import { ApiController } from '../http/direct-routes';
import { RawReply, RawResponder } from '../http/raw-reply';
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
  @Idempotent()
  @ApiEnvelope(LongId, { description: 'Created: `data` is the new label id.', errors: [422] })
  create(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Body(contract(CreateLabelRequest)) label: CreateLabelRequest,
  ): Promise<number> {
    return this.bus.call(
      LabelTopic.Create,
      { merchant_id: merchantId, label },
      { key: merchantId, correlationId, command },
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

  /**
   * A document of the label, as itself (not in the envelope): the shipping label as a 4 × 6 in
   * PDF page, an 812 × 1218 PNG (203 dpi) or ZPL II for a 203 dpi thermal printer; with
   * `type=customs` its CN22/CN23 customs declaration (PDF). Failures are in the envelope: 409
   * before the carrier allocated the tracking number, 410 once the label is voided, 404 for a
   * customs declaration of a label that crosses no customs border.
   */
  @Get(':id/document')
  @ApiOperation({ summary: 'Get a label document (PDF, PNG or ZPL; or its customs declaration)' })
  @ApiParam({ name: 'id', description: 'The label id.', schema: LongId })
  @ApiQuery({ name: 'format', enum: LabelDocumentFormat, required: true })
  @ApiQuery({
    name: 'type',
    enum: LabelDocumentType,
    required: false,
    description: '`label` (default) or `customs` (PDF only).',
  })
  @ApiProduces('application/pdf', 'image/png', 'application/zpl', 'application/json')
  @ApiExtension('x-raw-body', true)
  @ApiResponse({
    status: 200,
    description:
      'The document\'s bytes: `application/pdf` (one 4 × 6 in page, 288 × 432 pt, starting `%PDF-`), `image/png` (812 × 1218 pixels, black or white at 1 bit per pixel, 203 dpi in its `pHYs` chunk, starting with the PNG signature `89 50 4E 47`), or `application/zpl` (text starting `^XA`, `^CI28`, `^PW812`, `^LL1218`, ending `^XZ`). `Content-Disposition: inline; filename="label-12.pdf"`.',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'application/zpl': {
        schema: { type: 'string' },
        example:
          '^XA\n^CI28\n^PW812\n^LL1218\n^LH0,0\n^FO24,20^A0N,20,18^FH^FDFROM^FS\n…\n^FO40,918^BY3,3,180^BCN,180,N,N,N,A^FH^FD1ZC0N51G010000426^FS\n^XZ\n',
      },
    },
  })
  @ApiErrors([409, 410])
  async document(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Param('id', idParam('id')) labelId: number,
    @Query(contract(LabelDocumentQuery)) query: LabelDocumentQuery,
    @RawReply() reply: RawResponder,
  ): Promise<void> {
    const document = await this.bus.call(
      LabelTopic.GetDocument,
      {
        merchant_id: merchantId,
        label_id: labelId,
        format: query.format,
        type: query.type ?? LabelDocumentType.Label,
      },
      { key: labelId, correlationId },
    );
    reply.send({
      contentType: document.content_type,
      filename: document.filename,
      bytes: Buffer.from(document.body_base64, 'base64'),
    });
  }

  /**
   * Voids a label the carrier has not scanned yet: its status becomes `voided`, its tracking
   * gets an `exception` checkpoint saying so, the price is recorded as refunded, its documents
   * answer 410. Voiding a voided label answers it again (idempotent). After the carrier's first
   * scan: 409 with the scan.
   */
  @Post(':id/void')
  @ApiOperation({ summary: 'Void a label' })
  @Idempotent()
  @ApiParam({ name: 'id', description: 'The label id.', schema: LongId })
  @ApiEnvelope(LabelView, { description: '`data` is the voided label record.', errors: [409] })
  void(
    @MerchantId() merchantId: number,
    @CorrelationId() correlationId: string,
    @Command() command: CommandStamp,
    @Param('id', idParam('id')) labelId: number,
  ): Promise<LabelView> {
    return this.bus.call(
      LabelTopic.Void,
      { merchant_id: merchantId, label_id: labelId },
      { key: labelId, correlationId, command },
    );
  }
}
