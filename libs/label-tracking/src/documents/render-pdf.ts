import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFFont, StandardFonts, rgb } from 'pdf-lib';
import { barcodeSvg } from './barcodes';
import { Drawing } from './drawing';
import { fontBytes } from './fonts';

const POINTS_PER_INCH = 72;
/** Where a text's baseline sits below the top of its line, in ems (as in the PNG). */
const ASCENT = 0.8;
const BLACK = rgb(0, 0, 0);

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type ParsedFont = ReturnType<Fontkit['create']>;

/**
 * fontkit, remembering each font file it parsed. pdf-lib has fontkit parse the file again for
 * every document, and fontkit decodes a font's tables lazily, as they are used: each document
 * decoded DejaVu Sans' character map, metrics and glyphs anew, about half of a PDF's render time
 * (by a CPU profile, docs/benchmarks.md). A parsed font is only read by pdf-lib (text layout and
 * subsetting build new objects), and fontkit's calls are synchronous, so documents rendered
 * concurrently share it safely. Keyed by the font bytes, which fontBytes() reads once.
 */
const parsedFonts = new WeakMap<Uint8Array, ParsedFont>();
const rememberingFontkit: Fontkit = {
  create(data, postscriptName) {
    let font = parsedFonts.get(data);
    if (!font) {
      font = fontkit.create(data, postscriptName);
      parsedFonts.set(data, font);
    }
    return font;
  },
};

let winAnsi: Promise<ReadonlySet<number>> | undefined;

/** The characters the PDF standard fonts (WinAnsi encoding) can show. */
function standardCharacters(): Promise<ReadonlySet<number>> {
  winAnsi ??= PDFDocument.create()
    .then((pdf) => pdf.embedFont(StandardFonts.Helvetica))
    .then((font) => new Set(font.getCharacterSet()));
  return winAnsi;
}

/** The `<path>`s of a bwip-js SVG: stroked bars (1D) or filled outlines (2D). */
function svgPaths(svg: string): { d: string; strokeWidth: number | null }[] {
  return [...svg.matchAll(/<path ([^>]*?)\/?>/g)].map(([, attributes]) => ({
    d: /\bd="([^"]*)"/.exec(attributes)?.[1] ?? '',
    strokeWidth: Number(/stroke-width="([\d.]+)"/.exec(attributes)?.[1] ?? NaN) || null,
  }));
}

/**
 * The drawing as a one-page PDF of its size (a label: a 4 × 6 in page), with pdf-lib. Text in
 * Helvetica (a standard font: nothing embedded) when every character is one it can show, else in
 * DejaVu Sans, embedded and subset, so any name prints; rules as vector rectangles; barcodes as
 * vector paths from bwip-js's SVG, at their exact size. `created` fixes the PDF's dates, so one
 * label always gives the same bytes.
 */
export async function renderPdf(
  drawing: Drawing,
  meta: { title: string; created: Date },
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(rememberingFontkit);
  pdf.setTitle(meta.title);
  pdf.setProducer('Consign');
  pdf.setCreator('Consign');
  pdf.setCreationDate(meta.created);
  pdf.setModificationDate(meta.created);
  const shown = await standardCharacters();
  const standard = drawing.elements.every(
    (e) => e.kind !== 'text' || [...e.text].every((c) => shown.has(c.codePointAt(0) as number)),
  );
  const fonts: { regular?: PDFFont; bold?: PDFFont } = {};
  const font = async (bold: boolean): Promise<PDFFont> => {
    const key = bold ? 'bold' : 'regular';
    fonts[key] ??= standard
      ? await pdf.embedFont(bold ? StandardFonts.HelveticaBold : StandardFonts.Helvetica)
      : await pdf.embedFont(fontBytes()[key], { subset: true });
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
        // bwip-js's SVG is in units (a 1D code already `height` units tall): scale to points.
        for (const path of svgPaths(barcodeSvg(e).svg))
          page.drawSvgPath(path.d, {
            x: e.x * k,
            y: pageHeight - e.y * k,
            scale: k,
            ...(path.strokeWidth !== null
              ? { borderColor: BLACK, borderWidth: path.strokeWidth }
              : { color: BLACK }),
          });
        break;
      }
    }
  }
  return Buffer.from(await pdf.save());
}
