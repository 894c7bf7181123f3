/**
 * POST /2025-07/cloud/order through the standalone app, without and with an Idempotency-Key (a new
 * key per request), in the same run (issue 12 must show 7: idempotency may cost at most 10 % of
 * create-order throughput):
 *
 *   npm run bench:order-create [-- --seconds 8 --connections 10 --rounds 2 --databases embedded,postgres]
 *                                 [--settle 3000] [--count-statements 50]
 *
 * For each database (the embedded one `npm start` uses, and PostgreSQL at TEST_DATABASE_URL /
 * 127.0.0.1:5432 in a database of its own, dropped at the end) it starts the standalone app,
 * warms it up, then alternates rounds without and with a key (so that drift on a shared machine
 * hits both alike) and prints req/s, p50, p99 and the app's CPU time per request (all its threads,
 * from /proc: steadier than req/s on a shared machine) per round, and the ratios of the medians. The
 * orders name a SKU nobody has: the stock saga answers each one (OnHold) in the background, as it
 * would answer any order. Works on a branch without Idempotency-Key too (the header is ignored),
 * so the same file measures before and after.
 *
 * Requests per second of the create alone flatter a build whose saga falls behind (5948b20 answered
 * creates twice as fast as it settled them, the reservation answers of a third of its orders still
 * queued when a round ended). So each round also measures orders *settled*: `--settle N` creates
 * per variant (default 3000, 0: skip) over the same connections, timed until the order service has
 * consumed every reservation answer (`events_consumed_total` of stock.reservation_failed.v1 on
 * /metrics), with the app's CPU time over the same window: orders settled per second and CPU µs
 * per settled order, the figures issue 12's "at most 10 %" is judged on.
 *
 * `--count-statements N` also counts, before the rounds, the SQL statements and transactions per
 * order of each service's connection (N sequential creates per variant; the probe
 * bench/probes/count-statements.ts preloaded into the app); `--rounds 0` then counts only. The
 * probe costs a little per statement: take throughput figures from a run without it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
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
import { argNumber, argText, median } from './bench-args';

const SECONDS = argNumber('seconds', 8);
const CONNECTIONS = argNumber('connections', 10);
const ROUNDS = argNumber('rounds', 2);
const DATABASES = argText('databases', 'embedded,postgres').split(',');
/** Creates per variant and round timed until settled (0: not measured). */
const SETTLE = argNumber('settle', 3000);
/** Sequential creates per variant over which statements are counted (0: not counted). */
const COUNT_STATEMENTS = argNumber('count-statements', 0);
const PATH = '/2025-07/cloud/order';
/** The probe that counts statements in the app (built beside this file). */
const COUNT_PROBE = resolve(__dirname, 'probes', 'count-statements.js');
/** Idle time over which the statements sent without any request are counted, and settle time. */
const IDLE_MS = 3_000;

type Variant = 'without key' | 'with key';

/** The order every request creates: a SKU nobody has, so the saga puts it OnHold. */
const ORDER_BODY = JSON.stringify(anOrder([{ sku_number: 'BENCH-NO-STOCK', quantity: 1 }]));

/** One create (with a new Idempotency-Key for `with key`); resolves with the HTTP status. */
async function createOrder(base: string, apiKey: string, variant: Variant): Promise<number> {
  const response = await fetch(base + PATH, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      ...(variant === 'with key' ? { 'idempotency-key': randomUUID() } : {}),
    },
    body: ORDER_BODY,
  });
  await response.arrayBuffer();
  return response.status;
}

function row(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

async function postgresReachable(): Promise<boolean> {
  return withAdminClient(async () => true).catch(() => false);
}

function load(base: string, apiKey: string, variant: Variant, seconds: number): Promise<Result> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return autocannon({
    url: base + PATH,
    method: 'POST',
    headers,
    body: ORDER_BODY,
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

/** Reservation answers the order service has consumed so far (one per settled order). */
async function settledOrders(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n'))
    if (
      line.includes('events_consumed_total{') &&
      line.includes('topic="stock.reservation_failed.v1"') &&
      line.includes('outcome="handled"')
    )
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

/**
 * `count` creates over CONNECTIONS connections, timed until the order service has consumed every
 * one's reservation answer: orders settled per second and the app's CPU µs per settled order.
 */
async function settle(
  base: string,
  apiKey: string,
  pid: number,
  variant: Variant,
  count: number,
): Promise<{ perSecond: number; cpuPerOrder: number; failed: number }> {
  const start = await settledOrders(base);
  const cpuBefore = cpuMicros(pid);
  const started = performance.now();
  let sent = 0;
  let failed = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      if ((await createOrder(base, apiKey, variant)) !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const deadline = Date.now() + 120_000;
  while ((await settledOrders(base)) - start < count - failed) {
    if (Date.now() > deadline) throw new Error('the orders did not settle within 120 s');
    await sleep(20);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuMicros(pid);
  const cpuPerOrder =
    cpuBefore === undefined || cpuAfter === undefined ? NaN : (cpuAfter - cpuBefore) / count;
  return { perSecond: count / seconds, cpuPerOrder, failed };
}

type StatementCounts = Record<string, { statements: number; transactions: number }>;

/** The probe's counts so far (it writes them on SIGUSR2). */
async function snapshot(pid: number, file: string): Promise<StatementCounts> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 5_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error('the statement probe did not answer');
    await sleep(10);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as StatementCounts;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function minus(after: StatementCounts, before: StatementCounts): StatementCounts {
  const out: StatementCounts = {};
  for (const [name, value] of Object.entries(after))
    out[name] = {
      statements: value.statements - (before[name]?.statements ?? 0),
      transactions: value.transactions - (before[name]?.transactions ?? 0),
    };
  return out;
}

/**
 * Statements and transactions per order, per connection (application_name, one per service's
 * schema): COUNT_STATEMENTS sequential creates of each variant, each followed by IDLE_MS for the
 * saga to settle (OnHold); the statements an idle app sends in IDLE_MS (relay and dispatcher
 * polls, gauges) are counted first and taken off.
 */
async function countStatements(
  base: string,
  apiKey: string,
  pid: number,
  file: string,
  database: string,
): Promise<string[]> {
  const create = async (variant: Variant) => {
    const status = await createOrder(base, apiKey, variant);
    if (status !== 200) throw new Error(`create answered ${status}`);
  };
  for (let i = 0; i < 5; i++) await create('without key');
  await sleep(IDLE_MS);
  const start = await snapshot(pid, file);
  await sleep(IDLE_MS);
  const idle = minus(await snapshot(pid, file), start);
  const lines = [
    `${database}: statements (transactions) per order, ${COUNT_STATEMENTS} sequential creates, ` +
      `idle polling over ${IDLE_MS} ms taken off`,
    '',
    row(['connection', 'idle per 3 s', 'without key', 'with key']),
    row(['---', '---:', '---:', '---:']),
  ];
  const per: Record<Variant, StatementCounts> = { 'without key': {}, 'with key': {} };
  const elapsed: Record<Variant, number> = { 'without key': 0, 'with key': 0 };
  for (const variant of ['without key', 'with key'] as Variant[]) {
    const before = await snapshot(pid, file);
    const started = Date.now();
    for (let i = 0; i < COUNT_STATEMENTS; i++) await create(variant);
    await sleep(IDLE_MS);
    per[variant] = minus(await snapshot(pid, file), before);
    elapsed[variant] = Date.now() - started;
  }
  const names = [...new Set([...Object.keys(per['without key']), ...Object.keys(per['with key'])])];
  const cell = (counts: StatementCounts, name: string, idleShare: number) => {
    const s =
      ((counts[name]?.statements ?? 0) - idleShare * (idle[name]?.statements ?? 0)) /
      COUNT_STATEMENTS;
    const t =
      ((counts[name]?.transactions ?? 0) - idleShare * (idle[name]?.transactions ?? 0)) /
      COUNT_STATEMENTS;
    return { s, t };
  };
  const totals: Record<Variant, { s: number; t: number }> = {
    'without key': { s: 0, t: 0 },
    'with key': { s: 0, t: 0 },
  };
  const fixed = (x: number) => (Math.abs(x) < 0.05 ? 0 : x).toFixed(1);
  const format = (v: { s: number; t: number }) => `${fixed(v.s)} (${fixed(v.t)})`;
  for (const name of names.sort()) {
    const values = (['without key', 'with key'] as Variant[]).map((variant) => {
      // Take off the idle polling of a window as long as this variant's.
      const value = cell(per[variant], name, elapsed[variant] / IDLE_MS);
      totals[variant].s += value.s;
      totals[variant].t += value.t;
      return value;
    });
    lines.push(
      row([
        name,
        `${idle[name]?.statements ?? 0} (${idle[name]?.transactions ?? 0})`,
        ...values.map(format),
      ]),
    );
  }
  lines.push(row(['**total**', '', format(totals['without key']), format(totals['with key'])]), '');
  return lines;
}

async function measure(database: string): Promise<string[]> {
  const name = `consign_bench_${randomBytes(4).toString('hex')}`;
  const dataDir = tempDir('bench-order-create');
  const apiKey = newApiKey();
  const port = await freePort();
  if (database === 'postgres') await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  let app: AppProcess | undefined;
  const countsFile = join(dataDir, 'statement-counts.json');
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
        ...(COUNT_STATEMENTS > 0
          ? {
              NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${COUNT_PROBE}`.trim(),
              CONSIGN_STATEMENT_COUNTS: countsFile,
            }
          : {}),
      },
      GATEWAY_READY,
    );
    const base = `http://127.0.0.1:${port}`;
    const pid = app.child.pid;
    if (pid === undefined) throw new Error('the app has no pid');
    const counted =
      COUNT_STATEMENTS > 0 ? await countStatements(base, apiKey, pid, countsFile, database) : [];
    if (ROUNDS === 0) return counted;
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
    lines.unshift(...counted);
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
    if (SETTLE > 0) {
      const settled: Record<Variant, { perSecond: number; cpuPerOrder: number }[]> = {
        'without key': [],
        'with key': [],
      };
      lines.push(
        '',
        row([
          `${database}: ${SETTLE} orders settled`,
          'round',
          'orders/s',
          'CPU µs/order',
          'non-2xx',
        ]),
        row(['---', '---:', '---:', '---:', '---:']),
      );
      for (let round = 1; round <= ROUNDS; round++) {
        const order: Variant[] =
          round % 2 ? ['without key', 'with key'] : ['with key', 'without key'];
        for (const variant of order) {
          const result = await settle(base, apiKey, pid, variant, SETTLE);
          settled[variant].push(result);
          lines.push(
            row([
              variant,
              round,
              Math.round(result.perSecond),
              Math.round(result.cpuPerOrder),
              result.failed,
            ]),
          );
        }
      }
      const settledRate = (variant: Variant) => median(settled[variant].map((r) => r.perSecond));
      const settledCost = (variant: Variant) => median(settled[variant].map((r) => r.cpuPerOrder));
      lines.push(
        '',
        `${database}: median orders settled per second with key / without key = ` +
          `${(settledRate('with key') / settledRate('without key')).toFixed(3)} ` +
          `(${Math.round(settledRate('with key'))} / ${Math.round(settledRate('without key'))}); ` +
          `median CPU µs per settled order without key / with key = ` +
          `${(settledCost('without key') / settledCost('with key')).toFixed(3)} ` +
          `(${Math.round(settledCost('without key'))} / ${Math.round(settledCost('with key'))})`,
      );
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
