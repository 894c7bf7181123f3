import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';

const run = promisify(execFile);

/*
 * Test helpers (dev dependencies, loaded on first use only, never by the services): read label
 * documents back the way a person or a scanner would.
 */
let prepared = false;

/**
 * The barcodes a maintained decoder (ZXing-C++ in WebAssembly, zxing-wasm) finds in an image:
 * format and text. Its .wasm is read from the package, never fetched.
 */
export async function decodeBarcodes(image: Buffer): Promise<{ format: string; text: string }[]> {
  const { prepareZXingModule, readBarcodes } = await import('zxing-wasm/reader');
  if (!prepared) {
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.length) },
    });
    prepared = true;
  }
  const results = await readBarcodes(new Uint8Array(image), {
    formats: ['Code128', 'DataMatrix', 'PDF417', 'MaxiCode'],
    tryHarder: true,
    maxNumberOfSymbols: 8,
  });
  return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}

/** The first page of a PDF as a PNG, by poppler's pdftoppm (Debian: poppler-utils). */
export async function pdfPageAsPng(pdf: Buffer, dpi = 203): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'consign-pdf-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      join(dir, 'in.pdf'),
      join(dir, 'out'),
    ]);
    return await readFile(join(dir, 'out.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A PDF's text, by poppler's pdftotext (layout kept). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'consign-pdf-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A PDF's pages and page size, by poppler's pdfinfo. */
export async function pdfInfo(pdf: Buffer): Promise<{ pages: number; pageSize: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'consign-pdf-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdfinfo', [join(dir, 'in.pdf')]);
    return {
      pages: Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]),
      pageSize: /Page size:\s+([^\n]+)/.exec(stdout)?.[1].trim() ?? '',
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The fonts a PDF uses, by poppler's pdffonts: name and whether embedded. */
export async function pdfFonts(pdf: Buffer): Promise<{ name: string; embedded: boolean }[]> {
  const dir = await mkdtemp(join(tmpdir(), 'consign-pdf-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdffonts', [join(dir, 'in.pdf')]);
    // name type encoding emb sub uni object ID, after two header lines.
    return stdout
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const columns = line.trim().split(/\s+/);
        return { name: columns[0], embedded: columns[columns.length - 5] === 'yes' };
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A ZPL label as a printer would print it: rendered by Zebrash (IngridHQ's ZPL renderer, in
 * WebAssembly via zpl-renderer-js) at 8 dots/mm (203 dpi), 4 × 6 in.
 */
export async function zplAsPng(zpl: string): Promise<Buffer> {
  const { ready } = await import('zpl-renderer-js');
  const { api } = await ready;
  // 812 × 1218 dots at 8 dots/mm (Zebrash rounds the millimetres up to whole dots).
  return Buffer.from(await api.zplToBase64Async(zpl, 812 / 8, 1218 / 8, 8), 'base64');
}

/** A PNG's size, from its header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
