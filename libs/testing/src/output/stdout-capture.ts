import fs from 'node:fs';

/**
 * Captures what the process writes to stdout, both ways it can: `process.stdout.write` (a logger
 * that writes each line at once) and `fs.writeSync` on descriptor 1 (BatchedStdout). For specs.
 */
export function captureStdout(): { writes: string[]; restore(): void } {
  const writes: string[] = [];
  const stream = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    writes.push(String(chunk));
    return true;
  });
  const descriptor = jest
    .spyOn(fs, 'writeSync')
    .mockImplementation((fd: number, buffer: unknown, offset?: unknown, length?: unknown) => {
      if (fd !== 1 || !Buffer.isBuffer(buffer)) throw new Error(`unexpected write to ${fd}`);
      const start = typeof offset === 'number' ? offset : 0;
      const end = typeof length === 'number' ? start + length : buffer.length;
      writes.push(buffer.toString('utf8', start, end));
      return end - start;
    });
  return {
    writes,
    restore: () => {
      stream.mockRestore();
      descriptor.mockRestore();
    },
  };
}
