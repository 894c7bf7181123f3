/**
 * A document as a list of positioned elements, drawn the same way by each renderer (PDF, PNG,
 * ZPL): the layout is written once. Coordinates are in the drawing's units from the top-left
 * corner; a text's `y` is the top of its line.
 */
export interface Drawing {
  /** Units per inch: 203 (a thermal printer's dots) for labels, 72 (points) for paper forms. */
  unitsPerInch: number;
  width: number;
  height: number;
  elements: DrawingElement[];
}

export type Symbology = 'code128' | 'datamatrix' | 'pdf417';

export type DrawingElement =
  | { kind: 'text'; x: number; y: number; size: number; text: string; bold?: boolean }
  /** A filled rectangle: rules and thick bars. */
  | { kind: 'rule'; x: number; y: number; width: number; height: number }
  /** A rectangle's outline. */
  | { kind: 'frame'; x: number; y: number; width: number; height: number; thickness: number }
  /**
   * A barcode: `module` units per narrow bar or 2D module; a 1D code is `height` units tall (a
   * 2D code's size follows from its data).
   */
  | {
      kind: 'barcode';
      x: number;
      y: number;
      symbology: Symbology;
      text: string;
      module: number;
      height: number;
    };

/** Average advance of a character, in ems, of the fonts used (DejaVu Sans, bold a little wider). */
const EM_PER_CHAR = { regular: 0.6, bold: 0.66 };

/**
 * Text cut to what fits in `width` units at `size` (an ellipsis marks the cut). Widths are
 * estimated from the fonts' average advance, on the safe side: a printer's own font (ZPL) is
 * narrower than DejaVu Sans, never wider.
 */
export function fitText(text: string, size: number, width: number, bold = false): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const max = Math.max(
    1,
    Math.floor(width / (size * (bold ? EM_PER_CHAR.bold : EM_PER_CHAR.regular))),
  );
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}
