/**
 * GET /2025-07/cloud/product/:id on the built standalone app, against a bare Fastify server
 * answering a similar JSON object: `npm run bench` (see docs/benchmarks.md).
 *
 * The servers run as child processes (pinned to the last CPU when `taskset` exists) and the load
 * generator (autocannon) in this process (pinned to the first), like "load generator on the other
 * core" in ARCHITECTURE.md. The standalone app is measured on a fresh PostgreSQL database when
 * 127.0.0.1:5432 answers, and on the embedded database (PGlite) in a temporary DATA_DIR.
 *
 * Environment: BENCH_DURATION (seconds per round, default 10), BENCH_ROUNDS (default 3: the median
 * round is reported), BENCH_WARMUP (seconds, default 5), BENCH_CONNECTIONS (default 50), BENCH_MODES (default "postgres,embedded"), BENCH_PG_ADMIN_URL
 * (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres), BENCH_CPU_PROF=1
 * (run the standalone app under `node --cpu-prof` and print its hottest functions; the profiles are
 * kept under BENCH_CPU_PROF_DIR when it is set).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

// ---------------------------------------------------------------------------------------------
// autocannon has no type declarations: the part of its API used here.

interface Histogram {
  mean: number;
  p50: number;
  p99: number;
  total: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  pipelining: number;
  duration: number;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(__filename)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------

const PRODUCT_PATH = '/2025-07/cloud/product';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const MODES = (process.env.BENCH_MODES ?? 'postgres,embedded').split(',');
const PG_ADMIN_URL =
  process.env.BENCH_PG_ADMIN_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const CPU_PROF = process.env.BENCH_CPU_PROF === '1';

function findRepoRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no nx.json above ${from}`);
  }
}

const ROOT = findRepoRoot(__dirname);
const CPU_COUNT = cpus().length;
const PINNING = CPU_COUNT >= 2 && hasTaskset();
const SERVER_CPU = String(CPU_COUNT - 1);
const LOADGEN_CPU = '0';

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// Child processes

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** The environment without anything that would change the app's mode. */
function cleanEnv(): Record<string, string> {
  const drop = ['DATABASE_URL', 'KAFKA_BROKERS', 'BOOTSTRAP_API_KEY', 'PORT', 'DATA_DIR'];
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !drop.includes(entry[0]),
    ),
  );
}

async function startServer(
  name: string,
  nodeArgs: string[],
  env: Record<string, string>,
  port: number,
  ready: RegExp,
): Promise<Server> {
  const command = PINNING ? 'taskset' : process.execPath;
  const args = PINNING ? ['-c', SERVER_CPU, process.execPath, ...nodeArgs] : nodeArgs;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...cleanEnv(), ...env, PORT: String(port), NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (ready.test(output)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready:\n${output}`));
    });
  });
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Child mode: a bare Fastify server answering BENCH_BODY on the product path. */
async function serveBareFastify(): Promise<void> {
  const { default: fastify } = await import('fastify');
  const body = JSON.parse(process.env.BENCH_BODY ?? '{}') as unknown;
  const app = fastify({ logger: false });
  app.get(`${PRODUCT_PATH}/:id`, async () => body);
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.stdout.write('bare fastify ready\n');
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------
// Databases

async function postgresReachable(): Promise<boolean> {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Measurement

interface Measurement {
  name: string;
  /** Mean req/s of the median round (by req/s). */
  rps: number;
  /** Lowest and highest mean req/s of the rounds. */
  rpsRange: [number, number];
  latencyP50: number;
  latencyP99: number;
  requests: number;
  failures: number;
}

/** A warm-up, then ROUNDS measurements; the median round (by req/s) is the result. */
async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
): Promise<Measurement> {
  const options = { url, headers, connections: CONNECTIONS, pipelining: 1 };
  await autocannon({ ...options, duration: WARMUP });
  const rounds: AutocannonResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const load = loadavg()[0].toFixed(2);
    const result = await autocannon({ ...options, duration: DURATION });
    rounds.push(result);
    const statuses = Object.entries(result.statusCodeStats)
      .map(([status, { count }]) => `${status}: ${count}`)
      .join(', ');
    log(
      `  ${name}, round ${round}: ${result.requests.mean.toFixed(0)} req/s, ` +
        `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms ` +
        `(${statuses || 'no answers'}; ${result.errors} errors, ${result.timeouts} timeouts; ` +
        `load average before: ${load})`,
    );
  }
  const sorted = [...rounds].sort((a, b) => a.requests.mean - b.requests.mean);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return {
    name,
    rps: median.requests.mean,
    rpsRange: [sorted[0].requests.mean, sorted[sorted.length - 1].requests.mean],
    latencyP50: median.latency.p50,
    latencyP99: median.latency.p99,
    requests: rounds.reduce((sum, r) => sum + r.requests.total, 0),
    failures: rounds.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

async function json(response: Response): Promise<{ code: number; data: unknown }> {
  return (await response.json()) as { code: number; data: unknown };
}

/** Starts the standalone app, creates a product with two variants, and measures reading it. */
async function benchStandalone(
  label: string,
  database: 'postgres' | 'embedded',
): Promise<{ measurement: Measurement; body: unknown }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'consign-bench-'));
  const dbName = `consign_bench_${randomBytes(4).toString('hex')}`;
  const apiKey = `csk_bench_${randomBytes(18).toString('base64url')}`;
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: apiKey,
    // The per-key rate limit stays on (its cost is part of every request) but never refuses.
    RATE_LIMIT_MAX: '1000000000',
  };
  if (database === 'postgres') {
    await adminQuery(`CREATE DATABASE "${dbName}"`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  const profileDir = process.env.BENCH_CPU_PROF_DIR
    ? resolve(process.env.BENCH_CPU_PROF_DIR, database)
    : join(dataDir, 'cpu-profile');
  const nodeArgs = [
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    join(ROOT, 'dist/apps/standalone/src/main.js'),
  ];
  const port = await freePort();
  const server = await startServer(label, nodeArgs, env, port, /Consign is running at/);
  try {
    const headers = { authorization: `Bearer ${apiKey}` };
    const suffix = randomBytes(3).toString('hex');
    const created = await fetch(`${server.url}${PRODUCT_PATH}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Organic cotton tee ${suffix}`,
        body_html: '<p>Soft, heavy organic cotton.</p>',
        vendor: 'Northwind',
        currency: 'EUR',
        category: 'Apparel > Tops',
        tags: ['cotton', 'summer'],
        options: { Size: ['S', 'M'] },
        images: [{ url: `https://cdn.example.com/${suffix}.jpg`, title: 'Front' }],
        variants: ['S', 'M'].map((size) => ({
          sku: `TEE-${suffix}-${size}`,
          title: size,
          retail_price: 24.9,
          compare_at_price: 29.9,
          weight: 0.25,
          weight_unit: 'kg',
          unit: 'pcs',
          options: { Size: size },
        })),
      }),
    }).then(json);
    if (created.code !== 200) throw new Error(`create failed: ${JSON.stringify(created)}`);
    const url = `${server.url}${PRODUCT_PATH}/${String(created.data)}`;
    const read = await fetch(url, { headers }).then(json);
    if (read.code !== 200) throw new Error(`read failed: ${JSON.stringify(read)}`);
    const measurement = await measure(label, url, headers);
    return { measurement, body: read };
  } finally {
    await server.stop();
    if (CPU_PROF) printHotspots(label, profileDir);
    if (database === 'postgres')
      await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchBareFastify(body: unknown): Promise<Measurement> {
  const port = await freePort();
  const server = await startServer(
    'bare Fastify',
    [__filename, 'bare-fastify'],
    { BENCH_BODY: JSON.stringify(body) },
    port,
    /bare fastify ready/,
  );
  try {
    return await measure('bare Fastify', `${server.url}${PRODUCT_PATH}/1`, {
      authorization: 'Bearer x',
    });
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// CPU profile summary (BENCH_CPU_PROF=1)

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function printHotspots(label: string, dir: string): void {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (!files.length) {
    log(`  (no CPU profile written for ${label})`);
    return;
  }
  const profile = JSON.parse(readFileSync(join(dir, files[0]), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const where = frame.url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
    const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  log(`  hottest functions of ${label} (self time, whole run):`);
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    log(`    ${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
}

// ---------------------------------------------------------------------------------------------

function machine(): string[] {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const lscpu = execFileSync('lscpu', { encoding: 'utf8' });
    model = /^Model name:\s*(.+)$/m.exec(lscpu)?.[1] ?? model;
  } catch {
    // lscpu is optional
  }
  return [
    `machine: ${CPU_COUNT} CPUs (${model}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${type()} ${release()}, Node ${process.version}`,
    `load: autocannon, ${CONNECTIONS} connections, pipelining 1, ${WARMUP} s warm-up, then ${ROUNDS} × ${DURATION} s (median round reported)`,
    PINNING
      ? `pinning: servers on CPU ${SERVER_CPU}, load generator on CPU ${LOADGEN_CPU} (taskset)`
      : 'pinning: none (taskset unavailable or a single CPU)',
  ];
}

function table(rows: Measurement[], baseline: Measurement | undefined): string[] {
  const header = [
    'server',
    'req/s (mean)',
    `range of ${ROUNDS}`,
    'latency p50',
    'latency p99',
    'requests',
    'failures',
  ];
  const cells = rows.map((m) => [
    m.name,
    m.rps.toFixed(0),
    `${m.rpsRange[0].toFixed(0)}–${m.rpsRange[1].toFixed(0)}`,
    `${m.latencyP50} ms`,
    `${m.latencyP99} ms`,
    String(m.requests),
    String(m.failures),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const lines = [line(header), ...cells.map(line)];
  if (baseline) {
    for (const m of rows.filter((row) => row !== baseline)) {
      lines.push(`${m.name} / bare Fastify = ${(m.rps / baseline.rps).toFixed(3)}`);
    }
  }
  return lines;
}

async function main(): Promise<void> {
  if (PINNING) execFileSync('taskset', ['-a', '-cp', LOADGEN_CPU, String(process.pid)]);
  for (const line of machine()) log(line);
  log();

  const results: Measurement[] = [];
  let body: unknown;
  if (MODES.includes('postgres')) {
    if (await postgresReachable()) {
      const run = await benchStandalone('standalone, PostgreSQL', 'postgres');
      results.push(run.measurement);
      body = run.body;
    } else {
      log(`PostgreSQL at ${new URL(PG_ADMIN_URL).host} is not reachable: skipped`);
    }
  }
  if (MODES.includes('embedded')) {
    const run = await benchStandalone('standalone, embedded', 'embedded');
    results.push(run.measurement);
    body ??= run.body;
  }
  const baseline = await benchBareFastify(body ?? { code: 200, message: 'success', data: {} });
  results.unshift(baseline);

  log();
  for (const line of table(results, baseline)) log(line);
  if (results.some((m) => m.failures > 0)) {
    log('\nSome requests failed: the figures above are not valid.');
    process.exitCode = 1;
  }
}

const run = process.argv[2] === 'bare-fastify' ? serveBareFastify : main;
run().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
