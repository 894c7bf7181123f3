/**
 * POST /2025-07/cloud/order through the standalone app, without and with an Idempotency-Key (a new
 * key per request), in the same run (issue 12 must show 7: idempotency may cost at most 10 % of
 * create-order throughput):
 *
 *   npm run bench:order-create [-- --seconds 8 --connections 10 --rounds 2 --databases embedded,postgres]
 *
 * For each database (the embedded one `npm start` uses, and PostgreSQL at TEST_DATABASE_URL /
 * 127.0.0.1:5432 in a database of its own, dropped at the end) it starts the standalone app,
 * warms it up, then alternates rounds without and with a key (so that drift on a shared machine
 * hits both alike) and prints req/s, p50, p99 and the app's CPU time per request (all its threads,
 * from /proc: steadier than req/s on a shared machine) per round, and the ratios of the medians. The
 * orders name a SKU nobody has: the stock saga answers each one (OnHold) in the background, as it
 * would answer any order. Works on a branch without Idempotency-Key too (the header is ignored),
 * so the same file measures before and after.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon, { Result } from 'autocannon';
import { cpuMicros } from './process-cpu';
import { databaseUrl, withAdminClient } from '@consign/platform';
import {
  AppProcess,
  GATEWAY_READY,
  anOrder,
  freePort,
  newApiKey,
  startApp,
  tempDir,
} from '@consign/testing';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const SECONDS = Number(arg('seconds', '8'));
const CONNECTIONS = Number(arg('connections', '10'));
const ROUNDS = Number(arg('rounds', '2'));
const DATABASES = arg('databases', 'embedded,postgres').split(',');
const PATH = '/2025-07/cloud/order';

type Variant = 'without key' | 'with key';

function row(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function postgresReachable(): Promise<boolean> {
  return withAdminClient(async () => true).catch(() => false);
}

function load(base: string, apiKey: string, variant: Variant, seconds: number): Promise<Result> {
  const body = JSON.stringify(anOrder([{ sku_number: 'BENCH-NO-STOCK', quantity: 1 }]));
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return autocannon({
    url: base + PATH,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: seconds,
    ...(variant === 'with key'
      ? {
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, 'idempotency-key': randomUUID() },
              }),
            },
          ],
        }
      : {}),
  });
}

async function measure(database: string): Promise<string[]> {
  const name = `consign_bench_${randomBytes(4).toString('hex')}`;
  const dataDir = tempDir('bench-order-create');
  const apiKey = newApiKey();
  const port = await freePort();
  if (database === 'postgres') await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  let app: AppProcess | undefined;
  try {
    app = await startApp(
      'standalone',
      {
        ...(database === 'postgres' ? { DATABASE_URL: databaseUrl(name) } : {}),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        BOOTSTRAP_API_KEY: apiKey,
        RATE_LIMIT_MAX: '0',
        CARRIER_SANDBOX: 'off',
      },
      GATEWAY_READY,
    );
    const base = `http://127.0.0.1:${port}`;
    // Warm-up: JIT, pools, the database's buffers; both paths.
    await load(base, apiKey, 'without key', 3);
    await load(base, apiKey, 'with key', 3);
    const results: Record<Variant, Result[]> = { 'without key': [], 'with key': [] };
    const cpu: Record<Variant, number[]> = { 'without key': [], 'with key': [] };
    const lines = [
      row([
        `${database}: POST ${PATH}`,
        'round',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU µs/req',
        'non-2xx',
      ]),
      row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
    ];
    const pid = app.child.pid;
    for (let round = 1; round <= ROUNDS; round++) {
      const order: Variant[] =
        round % 2 ? ['without key', 'with key'] : ['with key', 'without key'];
      for (const variant of order) {
        const before = cpuMicros(pid);
        const result = await load(base, apiKey, variant, SECONDS);
        const after = cpuMicros(pid);
        const perRequest =
          before === undefined || after === undefined
            ? NaN
            : (after - before) / Math.max(1, result.requests.total);
        results[variant].push(result);
        cpu[variant].push(perRequest);
        lines.push(
          row([
            variant,
            round,
            Math.round(result.requests.average),
            result.latency.p50,
            result.latency.p99,
            Math.round(perRequest),
            result.non2xx + result.errors,
          ]),
        );
      }
    }
    const rate = (variant: Variant) => median(results[variant].map((r) => r.requests.average));
    const cost = (variant: Variant) => median(cpu[variant]);
    lines.push(
      '',
      `${database}: median req/s with key / without key = ` +
        `${(rate('with key') / rate('without key')).toFixed(3)} ` +
        `(${Math.round(rate('with key'))} / ${Math.round(rate('without key'))}); ` +
        `median CPU µs per request without key / with key = ` +
        `${(cost('without key') / cost('with key')).toFixed(3)} ` +
        `(${Math.round(cost('without key'))} / ${Math.round(cost('with key'))})`,
      '',
    );
    return lines;
  } finally {
    await app?.stop();
    if (database === 'postgres')
      await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const lines = [
    `Consign create-order benchmark: standalone app, ${CONNECTIONS} connections, ${ROUNDS} rounds × ` +
      `${SECONDS} s per variant, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), node ` +
      `${process.version}; load average ${loadavg()[0].toFixed(1)} at the start`,
    '',
  ];
  for (const database of DATABASES) {
    if (database === 'postgres' && !(await postgresReachable())) {
      lines.push('postgres: not reachable, skipped', '');
      continue;
    }
    lines.push(...(await measure(database)));
  }
  lines.push(`Load average ${loadavg()[0].toFixed(1)} at the end.`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
