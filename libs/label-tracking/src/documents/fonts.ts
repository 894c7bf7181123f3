import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** DejaVu Sans, from the dejavu-fonts-ttf package: wide Unicode coverage, free licence. */
const FONT_DIR = join(
  require.resolve('dejavu-fonts-ttf/package.json').replace(/package\.json$/, ''),
  'ttf',
);

export const FONT_FILES = [join(FONT_DIR, 'DejaVuSans.ttf'), join(FONT_DIR, 'DejaVuSans-Bold.ttf')];

let bytes: { regular: Buffer; bold: Buffer } | undefined;

/** The font files' bytes, read once (embedded, subset, in PDFs). */
export function fontBytes(): { regular: Buffer; bold: Buffer } {
  bytes ??= { regular: readFileSync(FONT_FILES[0]), bold: readFileSync(FONT_FILES[1]) };
  return bytes;
}
