/**
 * What an idle standalone process (`npm start`: the embedded database, no request) costs: its CPU
 * and the SQL statements it sends by itself, per service, over `--duration` seconds after
 * `--warmup` seconds of being live. With `--baseline <checkout>` (built: `npm run build` there),
 * that checkout's standalone runs in alternate rounds, so before and after come from one run:
 *
 *   npm run bench:idle-standalone [-- --rounds 2 --warmup 20 --duration 30] [--baseline <dir>]
 *
 * Each round starts the app on a fresh data folder. Statements are counted by each checkout's
 * bench/probes/count-statements.ts, preloaded (so both pay for the counting). CPU is user
 * + system time from /proc, all threads, in ms a second (a tenth of that is % of one core).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@consign/testing';
import { argNumber, argText, median } from './bench-args';
import { cpuMicros } from './process-cpu';

const ROOT = resolve(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Counts = Record<string, { statements: number }>;

async function counts(child: ChildProcess, file: string): Promise<Counts> {
  rmSync(file, { force: true });
  child.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
  return JSON.parse(readFileSync(file, 'utf8')) as Counts;
}

interface Round {
  cpuMsPerSecond: number;
  statements: Map<string, number>;
}

async function round(root: string, warmup: number, duration: number): Promise<Round> {
  const dataDir = mkdtempSync(join(tmpdir(), 'consign-idle-'));
  const countsFile = join(dataDir, 'statement-counts.json');
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(root, 'dist', 'apps', 'standalone', 'src', 'main.js')],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(dataDir, 'data'),
        LOG_LEVEL: 'warn',
        // The checkout's own probe: it must patch the `pg` that checkout's app loads.
        NODE_OPTIONS: `--require ${join(root, 'dist', 'bench', 'probes', 'count-statements.js')}`,
        CONSIGN_STATEMENT_COUNTS: countsFile,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const live = await fetch(`http://127.0.0.1:${port}/health/live`).then(
        (response) => response.ok,
        () => false,
      );
      if (live) break;
      if (Date.now() > deadline) throw new Error(`${root}: not live after 120 s`);
      await sleep(200);
    }
    await sleep(warmup * 1000);
    const [cpuBefore, before] = [cpuMicros(child.pid), await counts(child, countsFile)];
    await sleep(duration * 1000);
    const [cpuAfter, after] = [cpuMicros(child.pid), await counts(child, countsFile)];
    const statements = new Map<string, number>();
    for (const [name, { statements: n }] of Object.entries(after))
      statements.set(name, n - (before[name]?.statements ?? 0));
    return {
      cpuMsPerSecond: ((cpuAfter ?? NaN) - (cpuBefore ?? NaN)) / 1000 / duration,
      statements,
    };
  } finally {
    await new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rounds = argNumber('rounds', 2);
  const warmup = argNumber('warmup', 20);
  const duration = argNumber('duration', 30);
  const baseline = argText('baseline', '');
  const variants = [{ name: 'as built', root: ROOT }];
  if (baseline) variants.push({ name: `baseline (${baseline})`, root: resolve(baseline) });
  process.stdout.write(
    `idle standalone, embedded database: ${rounds} round(s) each, ${warmup} s live, then ${duration} s measured, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const results = new Map<string, Round[]>(variants.map((v) => [v.name, []]));
  for (let r = 1; r <= rounds; r++)
    for (const variant of variants) {
      const result = await round(variant.root, warmup, duration);
      results.get(variant.name)!.push(result);
      const total = [...result.statements.values()].reduce((sum, n) => sum + n, 0);
      process.stdout.write(
        `round ${r}, ${variant.name}: ${result.cpuMsPerSecond.toFixed(1)} ms of CPU a second, ${(total / duration).toFixed(2)} statements a second\n`,
      );
    }
  for (const [name, list] of results) {
    process.stdout.write(
      `\n${name}: ${median(list.map((r) => r.cpuMsPerSecond)).toFixed(1)} ms of CPU a second (median); statements a second by connection (median):\n`,
    );
    const names = [...new Set(list.flatMap((r) => [...r.statements.keys()]))].sort();
    for (const connection of names) {
      const rate = median(list.map((r) => (r.statements.get(connection) ?? 0) / duration));
      if (rate > 0) process.stdout.write(`  ${connection.padEnd(28)} ${rate.toFixed(2)}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
