import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { BatchedStdout } from './batched-stdout';
import { captureStdout } from '@consign/testing';

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('BatchedStdout', () => {
  let out: ReturnType<typeof captureStdout>;
  let batch: BatchedStdout;
  let removeExitListener: () => void;

  beforeEach(() => {
    const before = process.listeners('exit');
    out = captureStdout();
    batch = new BatchedStdout();
    const added = process.listeners('exit').filter((listener) => !before.includes(listener));
    removeExitListener = () => added.forEach((listener) => process.off('exit', listener));
  });

  afterEach(() => {
    out.restore();
    removeExitListener();
  });

  it('writes the lines of one turn of the event loop together, at its end, in order', async () => {
    batch.write('one\n');
    batch.write('two\n');
    expect(out.writes).toEqual([]);
    await turnEnd();
    expect(out.writes).toEqual(['one\ntwo\n']);
    batch.write('three\n');
    await turnEnd();
    expect(out.writes).toEqual(['one\ntwo\n', 'three\n']);
  });

  it('writes at once when the waiting lines pass the bound, and on flush', () => {
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < BatchedStdout.MAX_PENDING_CHARS / line.length; i++) batch.write(line);
    expect(out.writes).toEqual([line.repeat(BatchedStdout.MAX_PENDING_CHARS / line.length)]);
    batch.write('last\n');
    batch.flush();
    expect(out.writes.at(-1)).toBe('last\n');
    batch.flush();
    expect(out.writes).toHaveLength(2);
  });
});

describe('BatchedStdout in a process that exits', () => {
  let dir: string;
  let compiled: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'batched-stdout-'));
    compiled = join(dir, 'batched-stdout.js');
    const { code } = transformFileSync(join(__dirname, 'batched-stdout.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      swcrc: false,
    });
    writeFileSync(compiled, code);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function run(ending: string): Promise<{ stdout: string; code: number | null }> {
    const script = `
      const { batchedStdout } = require(${JSON.stringify(compiled)});
      for (let i = 0; i < 20000; i++) batchedStdout().write('line ' + i + '\\n');
      ${ending}`;
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        ['-e', script],
        { env: { ...process.env, NODE_OPTIONS: '' }, maxBuffer: 64 * 1024 * 1024 },
        (_error, stdout) => resolve({ stdout, code: child.exitCode }),
      );
    });
  }

  const expected = Array.from({ length: 20000 }, (_, i) => `line ${i}`);

  it.each([
    ['process.exit in the same turn', 'process.exit(3);', 3],
    ['an uncaught error in the same turn', 'throw new Error("boom");', 1],
    ['the end of the event loop', '', 0],
  ])('loses no line on %s', async (_case, ending, exitCode) => {
    const { stdout, code } = await run(ending);
    expect(code).toBe(exitCode);
    expect(stdout.split('\n').filter(Boolean)).toEqual(expected);
  });
});
