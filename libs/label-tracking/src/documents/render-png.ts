import { Resvg } from '@resvg/resvg-js';
import UPNG from '@pdf-lib/upng';
import { barcodeSvg } from './barcodes';
import { Drawing } from './drawing';
import { FONT_FILES } from './fonts';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] as string,
  );

/** Where a text's baseline sits below the top of its line, in ems (DejaVu Sans' ascent). */
const ASCENT = 0.8;

/** The drawing as one SVG document, one unit per pixel. */
export function drawingSvg(drawing: Drawing): string {
  const parts: string[] = [];
  for (const e of drawing.elements) {
    switch (e.kind) {
      case 'text':
        parts.push(
          `<text x="${e.x}" y="${e.y + e.size * ASCENT}" font-size="${e.size}"${e.bold ? ' font-weight="bold"' : ''}>${escapeXml(e.text)}</text>`,
        );
        break;
      case 'rule':
        parts.push(`<rect x="${e.x}" y="${e.y}" width="${e.width}" height="${e.height}"/>`);
        break;
      case 'frame': {
        const half = e.thickness / 2;
        parts.push(
          `<rect x="${e.x + half}" y="${e.y + half}" width="${e.width - e.thickness}" height="${e.height - e.thickness}" fill="none" stroke="#000" stroke-width="${e.thickness}"/>`,
        );
        break;
      }
      case 'barcode': {
        const code = barcodeSvg(e);
        const height = e.symbology === 'code128' ? e.height : code.height;
        // A nested <svg> places bwip-js's symbol; a 1D code is stretched to its bar height only.
        parts.push(
          code.svg
            .replace(
              '<svg ',
              `<svg x="${e.x}" y="${e.y}" width="${code.width}" height="${height}" preserveAspectRatio="none" `,
            )
            .replace(/<\?xml[^>]*>/, ''),
        );
        break;
      }
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${drawing.width}" height="${drawing.height}" viewBox="0 0 ${drawing.width} ${drawing.height}" shape-rendering="crispEdges" font-family="DejaVu Sans">` +
    `<rect width="100%" height="100%" fill="#fff"/>${parts.join('')}</svg>`
  );
}

/** UPNG's lossless encoder; its last argument, the ancillary chunks (`tabs`), is not in its typings. */
const encodePng = UPNG.encode as (
  frames: ArrayBuffer[],
  width: number,
  height: number,
  colours: 0,
  delays: undefined,
  tabs: { pHYs: [number, number, number] },
) => ArrayBuffer;

/** 203 dots per inch in PNG's unit (pixels per metre), so viewers print it at 4 × 6 in. */
const PIXELS_PER_METRE_203_DPI = Math.round(203 / 0.0254);

/**
 * The drawing as a black-and-white PNG, one pixel per unit (812 × 1218 for a label: 4 × 6 in at
 * 203 dpi, recorded in its pHYs chunk). resvg renders with the DejaVu fonts shipped by the
 * dejavu-fonts-ttf package, never the machine's: the same bytes everywhere. A label printer prints
 * dots, black or white, so the image is 1 bit per pixel (text anti-aliasing thresholded at half
 * grey), as carriers' own PNG labels are: ≈ 6 times smaller than resvg's RGBA PNG and cheaper to
 * encode, which keeps the document well inside one bus message (see docs/bus.md).
 */
export function renderPng(drawing: Drawing): Buffer {
  const resvg = new Resvg(drawingSvg(drawing), {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
    shapeRendering: 0,
    textRendering: 1,
  });
  const image = resvg.render();
  const { width, height } = image;
  // Two colours: UPNG's lossless encoder writes them as a 1-bit palette image.
  const blackAndWhite = thresholded(image.pixels);
  return Buffer.from(
    encodePng([blackAndWhite.buffer], width, height, 0, undefined, {
      pHYs: [PIXELS_PER_METRE_203_DPI, PIXELS_PER_METRE_203_DPI, 1],
    }),
  );
}

/** One RGBA pixel as a 32-bit word, in this machine's byte order. */
const pixelWord = (rgba: number[]) => new Uint32Array(new Uint8Array(rgba).buffer)[0];
const OPAQUE_BLACK = pixelWord([0, 0, 0, 255]);
const OPAQUE_WHITE = pixelWord([255, 255, 255, 255]);

/**
 * Opaque RGBA pixels made black or white. Everything is drawn in black on a white page, so each
 * pixel is a grey (red = green = blue) and its red is its lightness: below half, black.
 */
function thresholded(rgba: Buffer): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(rgba.length / 4);
  const [black, white] = [OPAQUE_BLACK, OPAQUE_WHITE];
  for (let i = 0; i < out.length; i++) out[i] = rgba[i * 4] < 128 ? black : white;
  return out;
}
