import { Resvg } from '@resvg/resvg-js';
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

/**
 * The drawing as a PNG, one pixel per unit (812 × 1218 for a label: 4 × 6 in at 203 dpi).
 * resvg renders with the DejaVu fonts shipped by the dejavu-fonts-ttf package, never the
 * machine's: the same bytes everywhere.
 */
export function renderPng(drawing: Drawing): Buffer {
  const resvg = new Resvg(drawingSvg(drawing), {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
    shapeRendering: 0,
    textRendering: 1,
  });
  return resvg.render().asPng();
}
