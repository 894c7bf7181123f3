import { IsEnum, IsOptional } from 'class-validator';

/** The formats a label's documents come in. */
export enum LabelDocumentFormat {
  /** A 4 × 6 in page. */
  Pdf = 'pdf',
  /** 812 × 1218 pixels: 4 × 6 in at 203 dpi, black on white at 1 bit per pixel (render-png.ts). */
  Png = 'png',
  /** ZPL II for a 203 dpi thermal printer, 4 × 6 in. */
  Zpl = 'zpl',
}

/** Which document: the shipping label, or the customs declaration (CN22 or CN23). */
export enum LabelDocumentType {
  Label = 'label',
  Customs = 'customs',
}

/** The customs declaration a parcel crossing a customs border travels with (UPU forms). */
export enum CustomsForm {
  /** Declared value up to the UPU threshold (300 SDR). */
  CN22 = 'CN22',
  /** Above it. */
  CN23 = 'CN23',
}

export const LABEL_DOCUMENT_CONTENT_TYPES: Readonly<Record<LabelDocumentFormat, string>> = {
  [LabelDocumentFormat.Pdf]: 'application/pdf',
  [LabelDocumentFormat.Png]: 'image/png',
  [LabelDocumentFormat.Zpl]: 'application/zpl',
};

/** Formats each document type comes in (customs forms are printed on paper: PDF only). */
export const LABEL_DOCUMENT_FORMATS: Readonly<Record<LabelDocumentType, LabelDocumentFormat[]>> = {
  [LabelDocumentType.Label]: [
    LabelDocumentFormat.Pdf,
    LabelDocumentFormat.Png,
    LabelDocumentFormat.Zpl,
  ],
  [LabelDocumentType.Customs]: [LabelDocumentFormat.Pdf],
};

/** `GET /2026-05/cloud/label/{id}/document?format=pdf|png|zpl[&type=label|customs]`. */
export class LabelDocumentQuery {
  @IsEnum(LabelDocumentFormat)
  format!: LabelDocumentFormat;

  /** `label` when not given. */
  @IsOptional()
  @IsEnum(LabelDocumentType)
  type?: LabelDocumentType;
}

/** One document a label has now: what to ask for, and what comes back. */
export class LabelDocumentLinkView {
  type!: LabelDocumentType;
  format!: LabelDocumentFormat;
  content_type!: string;
  /** The path to GET it (relative to the API's base address). */
  url!: string;
}

/** A rendered document as it crosses the bus (the gateway answers the bytes themselves). */
export class LabelDocumentView {
  content_type!: string;
  /** A file name for Content-Disposition: `label-12.pdf`. */
  filename!: string;
  /** The bytes, base64 (JSON carries no bytes). */
  body_base64!: string;
}
