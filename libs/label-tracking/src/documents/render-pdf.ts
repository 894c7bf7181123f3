import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFFont, rgb } from 'pdf-lib';
import { barcodePng } from './barcodes';
import { Drawing } from './drawing';
import { fontBytes } from './fonts';

const POINTS_PER_INCH = 72;
/** Where a text's baseline sits below the top of its line, in ems (as in the PNG). */
const ASCENT = 0.8;
const BLACK = rgb(0, 0, 0);

/**
 * The drawing as a one-page PDF of its size (a label: a 4 × 6 in page), with pdf-lib: text in
 * DejaVu Sans (embedded, subset to the glyphs used, so any name prints), rules as vector
 * rectangles, barcodes as bwip-js images placed at their exact size. `created` fixes the PDF's
 * dates, so one label always gives the same bytes.
 */
export async function renderPdf(
  drawing: Drawing,
  meta: { title: string; created: Date },
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(meta.title);
  pdf.setProducer('Consign');
  pdf.setCreator('Consign');
  pdf.setCreationDate(meta.created);
  pdf.setModificationDate(meta.created);
  const fonts: { regular?: PDFFont; bold?: PDFFont } = {};
  const font = async (bold: boolean): Promise<PDFFont> => {
    const key = bold ? 'bold' : 'regular';
    fonts[key] ??= await pdf.embedFont(fontBytes()[key], { subset: true });
    return fonts[key];
  };
  const k = POINTS_PER_INCH / drawing.unitsPerInch;
  const pageHeight = drawing.height * k;
  const page = pdf.addPage([drawing.width * k, pageHeight]);
  for (const e of drawing.elements) {
    switch (e.kind) {
      case 'text':
        page.drawText(e.text, {
          x: e.x * k,
          y: pageHeight - (e.y + e.size * ASCENT) * k,
          size: e.size * k,
          font: await font(e.bold === true),
          color: BLACK,
        });
        break;
      case 'rule':
        page.drawRectangle({
          x: e.x * k,
          y: pageHeight - (e.y + e.height) * k,
          width: e.width * k,
          height: e.height * k,
          color: BLACK,
        });
        break;
      case 'frame':
        page.drawRectangle({
          x: (e.x + e.thickness / 2) * k,
          y: pageHeight - (e.y + e.height - e.thickness / 2) * k,
          width: (e.width - e.thickness) * k,
          height: (e.height - e.thickness) * k,
          borderColor: BLACK,
          borderWidth: e.thickness * k,
        });
        break;
      case 'barcode': {
        const code = await barcodePng(e);
        const image = await pdf.embedPng(code.png);
        const height = e.symbology === 'code128' ? e.height : code.height;
        page.drawImage(image, {
          x: e.x * k,
          y: pageHeight - (e.y + height) * k,
          width: code.width * k,
          height: height * k,
        });
        break;
      }
    }
  }
  return Buffer.from(await pdf.save());
}
