import { Drawing, DrawingElement } from './drawing';

type Barcode = Extract<DrawingElement, { kind: 'barcode' }>;

/**
 * Field data for ^FH: `^`, `~` and `_` (the escape character itself) as `_` + hex, so no data
 * can end a field or start a command; the rest goes as UTF-8 (^CI28).
 */
function fieldData(text: string): string {
  return text.replace(/[\^~_]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const round = (value: number) => Math.round(value);

function barcodeCommand(e: Barcode): string {
  switch (e.symbology) {
    case 'code128':
      // ^BY module width; ^BC normal orientation, height, no human-readable line, automatic mode.
      return `^BY${e.module},3,${e.height}^BCN,${e.height},N,N,N,A`;
    case 'datamatrix':
      // ^BX: module size in dots, ECC 200.
      return `^BXN,${e.module},200`;
    case 'pdf417':
      // ^B7: row height (3 modules, as bwip-js's rowmult), security level 5, 4 data columns.
      return `^BY${e.module}^B7N,${e.module * 3},5,4`;
  }
}

/**
 * The drawing as a ZPL II label for a 203 dpi printer: ^PW/^LL set the 4 × 6 in size, ^CI28
 * takes UTF-8, texts use the printer's scalable font 0, rules are ^GB boxes, barcodes are the
 * printer's own (^BC Code 128, ^BX DataMatrix, ^B7 PDF417): the printer encodes
 * them from the data, at the same module size as the PDF and PNG.
 */
export function renderZpl(drawing: Drawing): string {
  if (drawing.unitsPerInch !== 203) throw new Error('ZPL is drawn in 203 dpi dots');
  const lines = ['^XA', '^CI28', `^PW${drawing.width}`, `^LL${drawing.height}`, '^LH0,0'];
  for (const e of drawing.elements) {
    switch (e.kind) {
      case 'text':
        lines.push(
          `^FO${round(e.x)},${round(e.y)}^A0N,${round(e.size)},${round(e.size * (e.bold ? 0.9 : 0.8))}^FH^FD${fieldData(e.text)}^FS`,
        );
        break;
      case 'rule': {
        const thickness = Math.min(e.width, e.height);
        lines.push(
          `^FO${round(e.x)},${round(e.y)}^GB${round(e.width)},${round(e.height)},${round(thickness)}^FS`,
        );
        break;
      }
      case 'frame':
        lines.push(
          `^FO${round(e.x)},${round(e.y)}^GB${round(e.width)},${round(e.height)},${round(e.thickness)}^FS`,
        );
        break;
      case 'barcode':
        lines.push(
          `^FO${round(e.x)},${round(e.y)}${barcodeCommand(e)}^FH^FD${fieldData(e.text)}^FS`,
        );
        break;
    }
  }
  lines.push('^XZ');
  return `${lines.join('\n')}\n`;
}
