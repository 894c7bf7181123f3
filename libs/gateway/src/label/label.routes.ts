import { Injectable } from '@nestjs/common';
import {
  CreateLabelRequest,
  LabelDocumentFormat,
  LabelDocumentQuery,
  LabelDocumentType,
  LabelTopic,
  LabelTrackingView,
  LabelView,
} from '@consign/contracts';
import { LongId } from '../http/api-envelope';
import { longIdParam } from '../http/route-inputs';
import { RawBody, RouteGroup, forward } from '../http/route-table';
import { TrackingTokenService } from '../tracking/tracking-token.service';

/** Spec endpoints 1 and 2, and the label record. */
@Injectable()
export class LabelRoutes implements RouteGroup {
  readonly name = 'Label';
  readonly tag = 'Labels';
  readonly prefix = '2026-05/cloud/label';

  constructor(private readonly trackingTokens: TrackingTokenService) {}

  readonly routes = [
    /**
     * Create a shipping label; `data` is the new label id. The service must be a carrier service
     * (GET /2025-07/cloud/service) that carries the declared contents (422 otherwise); the label is
     * priced by rating-service.
     */
    forward({
      name: 'create',
      method: 'POST',
      path: '',
      summary: 'Create a shipping label',
      body: CreateLabelRequest,
      response: {
        data: LongId,
        description: 'Created: `data` is the new label id.',
        errors: [422],
      },
      topic: LabelTopic.Create,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, label: body }),
    }),
    /**
     * The label's tracking: explicit nulls until a carrier is allocated, checkpoints latest first
     * in UTC. An unknown label is a 404 with the message "Order not found." (the spec's text).
     */
    forward({
      name: 'tracking',
      method: 'GET',
      path: 'tracking/:id',
      summary: 'Label tracking',
      params: { id: longIdParam('The label id.') },
      response: {
        data: LabelTrackingView,
        description: '`data` is the tracking of the label; `checkpoints` are latest first.',
      },
      topic: LabelTopic.GetTracking,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, label_id: params.id }),
      key: ({ params }) => params.id,
    }),
    /** The label record: what was asked for, and what the carrier allocated since. */
    forward({
      name: 'get',
      method: 'GET',
      path: ':id',
      summary: 'Get a label',
      params: { id: longIdParam('The label id.') },
      response: { data: LabelView, description: '`data` is the label record.' },
      topic: LabelTopic.Get,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, label_id: params.id }),
      key: ({ params }) => params.id,
      reply: (label, { merchantId, origin }): LabelView => ({
        ...label,
        tracking_url: this.trackingTokens.urlFor('label', merchantId, label.id, origin),
      }),
    }),
    /**
     * A document of the label, as itself (not in the envelope): the shipping label as a 4 × 6 in
     * PDF page, an 812 × 1218 PNG (203 dpi) or ZPL II for a 203 dpi thermal printer; with
     * `type=customs` its CN22/CN23 customs declaration (PDF). Failures are in the envelope: 409
     * before the carrier allocated the tracking number, 410 once the label is voided, 404 for a
     * customs declaration of a label that crosses no customs border.
     */
    forward({
      name: 'document',
      method: 'GET',
      path: ':id/document',
      summary: 'Get a label document (PDF, PNG or ZPL; or its customs declaration)',
      params: { id: longIdParam('The label id.') },
      query: LabelDocumentQuery,
      queryDocs: [
        {
          name: 'format',
          enum: LabelDocumentFormat,
          required: true,
          description:
            '`pdf`, `png` or `zpl`: the shipping label comes in all three, a customs declaration in `pdf` only.',
        },
        {
          name: 'type',
          enum: LabelDocumentType,
          required: false,
          description: '`label` (default) or `customs` (PDF only).',
        },
      ],
      response: {
        raw: {
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
          errors: [409, 410],
        },
      },
      topic: LabelTopic.GetDocument,
      request: ({ merchantId, params, query }) => ({
        merchant_id: merchantId,
        label_id: params.id,
        format: query.format,
        type: query.type ?? LabelDocumentType.Label,
      }),
      key: ({ params }) => params.id,
      reply: (document): RawBody => ({
        contentType: document.content_type,
        filename: document.filename,
        bytes: Buffer.from(document.body_base64, 'base64'),
      }),
    }),
    /**
     * Voids a label the carrier has not scanned yet: its status becomes `voided`, its tracking
     * gets an `exception` checkpoint saying so, the price is recorded as refunded, its documents
     * answer 410. Voiding a voided label answers it again (idempotent). After the carrier's first
     * scan: 409 with the scan.
     */
    forward({
      name: 'void',
      method: 'POST',
      path: ':id/void',
      summary: 'Void a label',
      params: { id: longIdParam('The label id.') },
      response: {
        data: LabelView,
        description: '`data` is the voided label record.',
        errors: [409],
      },
      topic: LabelTopic.Void,
      request: ({ merchantId, params }) => ({ merchant_id: merchantId, label_id: params.id }),
      key: ({ params }) => params.id,
    }),
  ];
}
