import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';

describe('cpu-profile.preload', () => {
  let dir: string;
  let preload: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cpu-profile-'));
    preload = join(dir, 'preload.js');
    const { code } = transformFileSync(join(__dirname, 'cpu-profile.preload.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      swcrc: false,
    });
    writeFileSync(preload, code);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the profile when the process is stopped by SIGTERM, which still ends it', async () => {
    const child = spawn(
      process.execPath,
      ['--require', preload, '-e', 'console.log("up"); setInterval(() => {}, 1000);'],
      { env: { ...process.env, NODE_OPTIONS: '', CPU_PROFILE_DIR: dir }, stdio: 'pipe' },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    const written = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
    expect(written).toHaveLength(1);
    const profile = JSON.parse(readFileSync(join(dir, written[0]), 'utf8')) as {
      nodes: unknown[];
      samples: unknown[];
    };
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(Array.isArray(profile.samples)).toBe(true);
  });

  it('writes nothing without CPU_PROFILE_DIR', async () => {
    const empty = mkdtempSync(join(dir, 'none-'));
    const child = spawn(process.execPath, ['--require', preload, '-e', ''], {
      cwd: empty,
      env: { ...process.env, NODE_OPTIONS: '', CPU_PROFILE_DIR: '' },
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(readdirSync(empty)).toEqual([]);
  });
});
