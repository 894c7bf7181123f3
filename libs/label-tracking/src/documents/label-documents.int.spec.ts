import { writeFileSync } from 'node:fs';
import UPNG from '@pdf-lib/upng';
import {
  CustomsForm,
  LABEL_ADDRESS_LIMITS,
  LABEL_LIMITS,
  LabelAddressDto,
  LabelDocumentFormat,
  LabelDocumentType,
  success,
} from '@consign/contracts';
import { MOKAPI_MAX_VALUE_BYTES } from '@consign/bus';
import { documentView } from '../label-document.service';
import { renderLabelDocument } from './label-documents';
import {
  aNumberedLabel,
  decodeBarcodes,
  pdfFonts,
  pdfInfo,
  pdfPageAsPng,
  pdfText,
  pngSize,
  zplAsPng,
} from '@consign/testing';

/*
 * Checked by looking, not by trust: each document is turned into an image the way a person or
 * a scanner would see it (the PDF by poppler's pdftoppm, the ZPL by Zebrash, a ZPL renderer)
 * and the barcodes are read back by ZXing (zxing-wasm).
 */
const render = (format: LabelDocumentFormat, label = aNumberedLabel()) =>
  renderLabelDocument(label, LabelDocumentType.Label, format);
/** Set LABEL_DOCUMENTS_OUT=/some/dir to look at what the tests rendered. */
const keep = (name: string, bytes: Buffer) => {
  if (process.env.LABEL_DOCUMENTS_OUT)
    writeFileSync(`${process.env.LABEL_DOCUMENTS_OUT}/${name}`, bytes);
};

describe('label documents', () => {
  const CARRIERS: [string, string, string | undefined][] = [
    ['UPS', '1ZC0N51G010000426', 'PDF417'],
    ['DHL', '3000000426', 'PDF417'],
    ['RM', 'RR00000042' + '2GB', 'DataMatrix'],
    ['DPD', '015050000000420', 'DataMatrix'],
    ['USPS', '9400190012345600000420', undefined],
  ];

  it('PDF: a 4 × 6 in page whose image holds the tracking number as Code 128', async () => {
    const doc = await render(LabelDocumentFormat.Pdf);
    keep('label.pdf', doc.bytes);
    expect(doc.contentType).toBe('application/pdf');
    expect(doc.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfInfo(doc.bytes)).toEqual({ pages: 1, pageSize: '288 x 432 pts' });
    const image = await pdfPageAsPng(doc.bytes);
    keep('label-pdf.png', image);
    expect(await decodeBarcodes(image)).toContainEqual({
      format: 'Code128',
      text: '1ZC0N51G010000426',
    });
    // Sender, recipient (any alphabet), service, weight, reference and date are on the page.
    const text = await pdfText(doc.bytes);
    for (const shown of [
      'Grace Hopper',
      'Zoë Łukasiewicz',
      'SW1Y 4JH',
      'UPS-EXPRESS',
      '2.4 KG',
      'REF ORDER-1001',
      '2026-05-20',
      '1ZC0 N51G 0100 0042 6',
    ])
      expect(text).toContain(shown);
  });

  it('PDF: Latin text in the standard Helvetica (nothing embedded), other scripts in DejaVu Sans', async () => {
    const latin = aNumberedLabel('UPS', '1ZC0N51G010000426', {
      shipping_address: {
        ...aNumberedLabel().shipping_address,
        first_name: 'Zoë',
        last_name: 'Müller',
      },
    });
    const pdf = (await render(LabelDocumentFormat.Pdf, latin)).bytes;
    expect(await pdfFonts(pdf)).toEqual([
      { name: 'Helvetica-Bold', embedded: false },
      { name: 'Helvetica', embedded: false },
    ]);
    expect(await pdfText(pdf)).toContain('Zoë Müller');
    const fonts = await pdfFonts((await render(LabelDocumentFormat.Pdf)).bytes);
    expect(fonts.map((f) => [f.name.replace(/^[A-Z]{6}\+|-\d+$/g, ''), f.embedded])).toEqual([
      ['DejaVuSans-Bold', true],
      ['DejaVuSans', true],
    ]);
  });

  it('PNG: 812 × 1218 (4 × 6 in at 203 dpi) with a readable Code 128', async () => {
    const doc = await render(LabelDocumentFormat.Png);
    keep('label.png', doc.bytes);
    expect(doc.contentType).toBe('image/png');
    expect(pngSize(doc.bytes)).toEqual({ width: 812, height: 1218 });
    // Black and white at 1 bit per pixel; 203 dpi is 7992 pixels per metre (unit 1) in pHYs.
    const png = UPNG.decode(new Uint8Array(doc.bytes).buffer);
    expect([png.ctype, png.depth, png.tabs.pHYs]).toEqual([0, 1, [7992, 7992, 1]]);
    expect(doc.bytes.length).toBeLessThan(20_000);
    expect(await decodeBarcodes(doc.bytes)).toContainEqual({
      format: 'Code128',
      text: '1ZC0N51G010000426',
    });
  });

  it('ZPL: a 4 × 6 in label that a ZPL renderer prints with the same barcode', async () => {
    const doc = await render(LabelDocumentFormat.Zpl);
    const zpl = doc.bytes.toString('utf8');
    keep('label.zpl', doc.bytes);
    expect(doc.contentType).toBe('application/zpl');
    expect(zpl).toMatch(/^\^XA\n\^CI28\n\^PW812\n\^LL1218\n/);
    const printed = await zplAsPng(zpl);
    keep('label-zpl.png', printed);
    expect(pngSize(printed)).toEqual({ width: 812, height: 1218 });
    expect(await decodeBarcodes(printed)).toContainEqual({
      format: 'Code128',
      text: '1ZC0N51G010000426',
    });
  });

  it('ZPL escapes what would end a field or start a command', async () => {
    const label = aNumberedLabel('UPS', '1ZC0N51G010000426', { reference: 'A^XZ~JR_1' });
    const zpl = (await render(LabelDocumentFormat.Zpl, label)).bytes.toString('utf8');
    expect(zpl).toContain('REF A_5EXZ_7EJR_5F1');
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
  });

  it.each(CARRIERS)(
    '%s: the Code 128 and the carrier’s 2D code read back from the PNG and the printed ZPL',
    async (courier, number, twoD) => {
      const label = aNumberedLabel(courier, number);
      const png = (await render(LabelDocumentFormat.Png, label)).bytes;
      const zpl = await zplAsPng(
        (await render(LabelDocumentFormat.Zpl, label)).bytes.toString('utf8'),
      );
      keep(`${courier}.png`, png);
      keep(`${courier}-zpl.png`, zpl);
      for (const image of [png, zpl]) {
        const found = await decodeBarcodes(image);
        expect(found).toContainEqual({ format: 'Code128', text: number });
        if (twoD)
          expect(found).toContainEqual({
            format: twoD,
            text: expect.stringContaining(`${number}|GB|SW1Y4JH|${courier}-EXPRESS`),
          });
      }
    },
  );

  it('prints an address stored with null optional fields as if they were absent', async () => {
    // Labels created before the gateway left out nulls (nullAsAbsent) hold them; rendering one
    // read `.trim()` of null and answered 500.
    const label = aNumberedLabel();
    const withNulls = {
      ...label.shipping_address,
      company_name: null,
      address2: null,
      district: null,
      province: null,
      province_code: null,
    } as unknown as LabelAddressDto;
    const stored = aNumberedLabel('UPS', '1ZC0N51G010000426', { shipping_address: withNulls });
    for (const format of Object.values(LabelDocumentFormat))
      expect((await render(format, stored)).bytes.length).toBeGreaterThan(0);
    const text = await pdfText((await render(LabelDocumentFormat.Pdf, stored)).bytes);
    expect(text).toContain(label.shipping_address.city);
    expect(text).not.toContain('null');
  });

  it('the same label gives the same bytes', async () => {
    for (const format of Object.values(LabelDocumentFormat)) {
      const [a, b] = [(await render(format)).bytes, (await render(format)).bytes];
      expect([format, a.equals(b)]).toEqual([format, true]);
    }
  });

  it.each([CustomsForm.CN22, CustomsForm.CN23])(
    '%s: a PDF of each item with its HS code, origin, weight and value',
    async (form) => {
      const doc = await renderLabelDocument(
        aNumberedLabel(),
        LabelDocumentType.Customs,
        LabelDocumentFormat.Pdf,
        form,
      );
      keep(`${form}.pdf`, doc.bytes);
      expect(doc.filename).toBe(`label-42-${form.toLowerCase()}.pdf`);
      expect((await pdfInfo(doc.bytes)).pageSize).toBe(
        form === CustomsForm.CN22 ? '288 x 432 pts' : '595 x 842 pts (A4)',
      );
      const text = await pdfText(doc.bytes);
      expect(text).toContain(form === CustomsForm.CN22 ? 'CN 22' : 'CN 23');
      for (const shown of [
        'Men’s wool jacket',
        '6201.30',
        'PT',
        '2.400',
        '800.00',
        'GBP',
        'Sale of goods',
      ])
        expect(text).toContain(shown);
      const image = await pdfPageAsPng(doc.bytes, 300);
      keep(`${form}.png`, image);
      expect(await decodeBarcodes(image)).toContainEqual({
        format: 'Code128',
        text: '1ZC0N51G010000426',
      });
    },
  );

  it('every document of the largest label fits one bus message on the smallest broker limit', async () => {
    // Every text at its contract limit, in letters of several scripts (each glyph the PDF must
    // embed), and the most items a request may carry: the largest documents a label can have.
    const text = (length: number) =>
      'Zoë Łukasiewicz Ψυχή Жёлтый Ærøskøbing Ğüşçö 0123456789 '.repeat(20).slice(0, length);
    const address = (base: LabelAddressDto): LabelAddressDto => ({
      ...base,
      ...Object.fromEntries(
        (['first_name', 'last_name', 'company_name', 'address1', 'address2'] as const).map(
          (field) => [field, text(LABEL_ADDRESS_LIMITS[field])],
        ),
      ),
      district: text(LABEL_ADDRESS_LIMITS.district),
      city: text(LABEL_ADDRESS_LIMITS.city),
      province: text(LABEL_ADDRESS_LIMITS.province),
    });
    const base = aNumberedLabel();
    const largest = aNumberedLabel('UPS', '1ZC0N51G010000426', {
      reference: text(LABEL_LIMITS.reference),
      shipping_address: address(base.shipping_address),
      shipper_address: address(base.shipper_address),
      items: Array.from({ length: 1000 }, (_, i) => ({
        ...base.items[0],
        product_name: text(LABEL_LIMITS.item.product_name),
        customs_description: `${i} ${text(LABEL_LIMITS.item.customs_description)}`,
      })),
    });
    const sizes: Record<string, number> = {};
    for (const [type, format] of [
      [LabelDocumentType.Label, LabelDocumentFormat.Pdf],
      [LabelDocumentType.Label, LabelDocumentFormat.Png],
      [LabelDocumentType.Label, LabelDocumentFormat.Zpl],
      [LabelDocumentType.Customs, LabelDocumentFormat.Pdf],
    ] as const) {
      const document = await renderLabelDocument(largest, type, format, CustomsForm.CN23);
      sizes[`${type} ${format}`] = Buffer.byteLength(
        JSON.stringify(success(documentView(document))),
      );
    }
    for (const [document, bytes] of Object.entries(sizes))
      expect([document, bytes <= MOKAPI_MAX_VALUE_BYTES]).toEqual([document, true]);
  }, 30_000);
});
