import { Resvg } from '@resvg/resvg-js';
import { crc32, deflateSync } from 'node:zlib';
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
  return blackAndWhitePng(image.pixels, image.width, image.height, PIXELS_PER_METRE_203_DPI);
}

/**
 * Opaque RGBA pixels as a 1-bit greyscale PNG (colour type 0, bit depth 1: 1 is white). Everything
 * is drawn in black on a white page, so each pixel is a grey (red = green = blue) and its red is
 * its lightness: below half, black. Rows are packed eight pixels a byte, each row with filter
 * type 0, and deflated by Node's zlib; the chunks are PNG's (ISO/IEC 15948): IHDR, pHYs, IDAT,
 * IEND, each with its CRC-32 (zlib.crc32). Packing and deflating here costs about half of what a
 * general encoder spends finding the image's two colours first.
 */
export function blackAndWhitePng(
  rgba: Uint8Array,
  width: number,
  height: number,
  pixelsPerMetre: number,
): Buffer {
  const stride = Math.ceil(width / 8) + 1;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride + 1;
    const first = y * width * 4;
    for (let x = 0; x < width; x++)
      if (rgba[first + x * 4] >= 128) rows[row + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, filter method 0, no interlace
  const physical = Buffer.alloc(9);
  physical.writeUInt32BE(pixelsPerMetre, 0);
  physical.writeUInt32BE(pixelsPerMetre, 4);
  physical[8] = 1; // the unit is the metre
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('pHYs', physical),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}
