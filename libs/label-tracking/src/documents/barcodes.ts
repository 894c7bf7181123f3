import bwipjs from 'bwip-js';
import type { DrawingElement, Symbology } from './drawing';

type Barcode = Extract<DrawingElement, { kind: 'barcode' }>;

/** bwip-js's options for a barcode element (its `scale` is pixels — our units — per module). */
export function bwipOptions(barcode: Barcode): bwipjs.RenderOptions {
  // bwip-js draws a DataMatrix module 2 pixels wide at scale 1.
  const scale = barcode.symbology === 'datamatrix' ? barcode.module / 2 : barcode.module;
  const base = { bcid: barcode.symbology, text: barcode.text, scale };
  const extra: Record<Symbology, Record<string, unknown>> = {
    // bwip-js's height is in millimetres at 72 dpi per module scale: ask for the units wanted.
    code128: { height: (barcode.height / barcode.module) * (25.4 / 72), includetext: false },
    datamatrix: {},
    pdf417: { columns: 4, rowmult: 3 },
  };
  return { ...base, ...extra[barcode.symbology] } as unknown as bwipjs.RenderOptions;
}

/** The barcode as SVG (an `<svg>` with a viewBox in units). */
export function barcodeSvg(barcode: Barcode): { svg: string; width: number; height: number } {
  const svg = bwipjs.toSVG(bwipOptions(barcode));
  const box = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  if (!box) throw new Error('bwip-js returned an SVG without a viewBox');
  return { svg, width: Number(box[1]), height: Number(box[2]) };
}
