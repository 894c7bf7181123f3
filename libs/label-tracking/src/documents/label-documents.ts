import {
  CustomsForm,
  LABEL_DOCUMENT_CONTENT_TYPES,
  LabelDocumentFormat,
  LabelDocumentType,
} from '@consign/contracts';
import { customsDrawing } from './customs-layout';
import { AllocatedLabel, labelDrawing } from './label-layout';
import { renderPdf } from './render-pdf';
import { renderPng } from './render-png';
import { renderZpl } from './render-zpl';

export interface RenderedDocument {
  contentType: string;
  filename: string;
  bytes: Buffer;
}

/**
 * One document of a numbered label: the shipping label in PDF, PNG or ZPL, or its customs
 * declaration (`form`, CN22 or CN23) in PDF. Pure: the same label gives the same bytes.
 */
export async function renderLabelDocument(
  label: AllocatedLabel,
  type: LabelDocumentType,
  format: LabelDocumentFormat,
  form: CustomsForm | null = null,
): Promise<RenderedDocument> {
  const contentType = LABEL_DOCUMENT_CONTENT_TYPES[format];
  if (type === LabelDocumentType.Customs) {
    if (!form || format !== LabelDocumentFormat.Pdf)
      throw new Error('a customs declaration is a PDF of a label crossing a customs border');
    const bytes = await renderPdf(customsDrawing(label, form), {
      title: `${form} customs declaration, label ${label.id}`,
      created: new Date(label.created_time),
    });
    return { contentType, filename: `label-${label.id}-${form.toLowerCase()}.pdf`, bytes };
  }
  const drawing = labelDrawing(label);
  const filename = `label-${label.id}.${format}`;
  switch (format) {
    case LabelDocumentFormat.Pdf:
      return {
        contentType,
        filename,
        bytes: await renderPdf(drawing, {
          title: `${label.tracking_courier} ${label.tracking_number}`,
          created: new Date(label.created_time),
        }),
      };
    case LabelDocumentFormat.Png:
      return { contentType, filename, bytes: renderPng(drawing) };
    case LabelDocumentFormat.Zpl:
      return { contentType, filename, bytes: Buffer.from(renderZpl(drawing), 'utf8') };
  }
}
