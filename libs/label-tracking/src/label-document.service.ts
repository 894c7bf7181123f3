import { Injectable } from '@nestjs/common';
import {
  CommonErrorCode,
  LABEL_DOCUMENT_FORMATS,
  LabelDocumentFormat,
  LabelDocumentType,
  LabelDocumentView,
  LabelErrorCode,
} from '@consign/contracts';
import { DomainError } from '@consign/core';
import { RenderedDocument, renderLabelDocument } from './documents/label-documents';
import type { AllocatedLabel } from './documents/label-layout';
import { LabelService } from './label.service';

/**
 * A label's documents, rendered on request from the label record (one read): only once the
 * carrier numbered it (409 before: never a placeholder), never once voided (410).
 */
@Injectable()
export class LabelDocumentService {
  constructor(private readonly labels: LabelService) {}

  async render(
    merchantId: number,
    labelId: number,
    format: LabelDocumentFormat,
    type: LabelDocumentType,
  ): Promise<LabelDocumentView> {
    if (!LABEL_DOCUMENT_FORMATS[type].includes(format))
      throw new DomainError(
        CommonErrorCode.Validation,
        `Validation failed: a ${type} document comes as ${LABEL_DOCUMENT_FORMATS[type].join(', ')}, not ${format}`,
      );
    const label = await this.labels.get(merchantId, labelId);
    if (label.void)
      throw new DomainError(
        LabelErrorCode.Voided,
        `Label ${labelId} was voided at ${label.void.voided_time}: its documents are no longer valid.`,
      );
    if (label.tracking_number === null || label.tracking_courier === null)
      throw new DomainError(
        LabelErrorCode.NotAllocated,
        `Label ${labelId} has no tracking number yet: its documents are ready once the carrier allocates one (GET /2026-05/cloud/label/tracking/${labelId}).`,
      );
    if (type === LabelDocumentType.Customs && label.customs_form === null)
      throw new DomainError(
        LabelErrorCode.NoCustomsDeclaration,
        `Label ${labelId} crosses no customs border (${label.shipper_address.country_code} to ${label.shipping_address.country_code}): it has no customs declaration.`,
      );
    return documentView(
      await renderLabelDocument(label as AllocatedLabel, type, format, label.customs_form),
    );
  }
}

/**
 * A rendered document as the bus carries it, base64 in the reply: one message (never over
 * BUS_MAX_MESSAGE_BYTES; label-documents.int.spec.ts checks the largest label's documents fit the
 * smallest limit a deployment runs with, 64 KiB).
 */
export function documentView(document: RenderedDocument): LabelDocumentView {
  return {
    content_type: document.contentType,
    filename: document.filename,
    body_base64: document.bytes.toString('base64'),
  };
}
