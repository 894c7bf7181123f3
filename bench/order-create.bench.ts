/**
 * POST /2025-07/cloud/order through the standalone app, without and with an Idempotency-Key (a new
 * key per request), in the same run (issue 12 must show 7: idempotency may cost at most 10 % of
 * create-order throughput):
 *
 *   npm run bench:order-create [-- --seconds 8 --connections 10 --rounds 2 --databases embedded,postgres]
 *                                 [--settle 3000] [--baseline] [--count-statements 50]
 *
 * For each database (the embedded one `npm start` uses, and PostgreSQL at TEST_DATABASE_URL /
 * 127.0.0.1:5432 in a database of its own, dropped at the end) it starts the standalone app (one
 * per variant), warms it up, then alternates rounds without and with a key (so that drift on a
 * shared machine hits both alike) and prints req/s, p50, p99 and the app's CPU time per request (all its threads,
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
 *
 * Each variant has an app and a database of its own, so that each database grows alike.
 * `--baseline` is issue 12's before/after in one run: a third app with
 * bench/probes/without-idempotency.ts preloaded (no command ledger, no hostile-input sweep), sent
 * no key, measured in the same rounds (order reversed every other round); the ratios are then
 * taken against it. Every round, req/s or settled, starts once the orders of the round before
 * have settled.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { Result } from 'autocannon';
import { cpuMicros } from './process-cpu';
import { anOrder, tempDir, withAdminClient } from '@consign/testing';
import { argNumber, argText, median } from './bench-args';
import { BenchApp, startBenchApp } from './standalone-app';

const SECONDS = argNumber('seconds', 8);
const CONNECTIONS = argNumber('connections', 10);
const ROUNDS = argNumber('rounds', 2);
const DATABASES = argText('databases', 'embedded,postgres').split(',');
/** Creates per variant and round timed until settled (0: not measured). */
const SETTLE = argNumber('settle', 3000);
/** How long the settled-order count must stay still before a settle round starts. */
const QUIET_MS = 500;
/** Sequential creates per variant over which statements are counted (0: not counted). */
const COUNT_STATEMENTS = argNumber('count-statements', 0);
const PATH = '/2025-07/cloud/order';
/** The probe that counts statements in the app (built beside this file). */
const COUNT_PROBE = resolve(__dirname, 'probes', 'count-statements.js');
/** The probe that takes the ledger and the hostile-input sweep out of the baseline app. */
const BASELINE_PROBE = resolve(__dirname, 'probes', 'without-idempotency.js');
/** Also measure the app without idempotency and the hostile-input sweep, in the same run. */
const BASELINE = process.argv.includes('--baseline');
/** Idle time over which the statements sent without any request are counted, and settle time. */
const IDLE_MS = 3_000;

type Variant = 'without key' | 'with key';

/**
 * What a round measures: the app as it is, without or with a key; or (`--baseline`) the app
 * with bench/probes/without-idempotency.ts preloaded (no command ledger, no hostile-input sweep),
 * sent no key.
 */
type Series = 'baseline' | Variant;

/** The key variant a series sends. */
const sends = (series: Series): Variant => (series === 'baseline' ? 'without key' : series);

/** An app under measurement. */
interface Target {
  base: string;
  apiKey: string;
  pid: number;
}

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

function load({ base, apiKey }: Target, variant: Variant, seconds: number): Promise<Result> {
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
 * The settled-order count once it has stopped moving (no change for QUIET_MS): the orders of an
 * earlier round (the req/s rounds create faster than the saga settles) must not be timed as part
 * of the next one. Without this wait a round after a req/s round paid for that round's backlog:
 * the first settle round's variant looked ≈ 10 % slower (with key / without key came out 1.10 on
 * 5948b20, which ignores the key).
 */
async function quiescent(base: string): Promise<number> {
  const deadline = Date.now() + 120_000;
  let last = await settledOrders(base);
  for (;;) {
    await sleep(QUIET_MS);
    const now = await settledOrders(base);
    if (now === last) return now;
    if (Date.now() > deadline) throw new Error('the earlier orders did not settle within 120 s');
    last = now;
  }
}

/**
 * `count` creates over CONNECTIONS connections, timed until the order service has consumed every
 * one's reservation answer: orders settled per second and the app's CPU µs per settled order.
 */
async function settle(
  { base, apiKey, pid }: Target,
  variant: Variant,
  count: number,
): Promise<{ perSecond: number; cpuPerOrder: number; failed: number }> {
  const start = await quiescent(base);
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

/** Starts the standalone app on `database`; `probe`: a module to preload into it. */
async function startTarget(
  database: string,
  probe: string | undefined,
  countsFile: string | undefined,
): Promise<{ target: Target; standalone: BenchApp }> {
  const preload = [probe, countsFile ? COUNT_PROBE : undefined].filter((p) => p !== undefined);
  const standalone = await startBenchApp({
    postgres: database === 'postgres',
    dataDirPrefix: 'bench-order-create',
    env: {
      CARRIER_SANDBOX: 'off',
      ...(preload.length > 0
        ? {
            NODE_OPTIONS: [
              process.env.NODE_OPTIONS ?? '',
              ...preload.map((file) => `--require ${file}`),
            ]
              .join(' ')
              .trim(),
          }
        : {}),
      ...(countsFile ? { CONSIGN_STATEMENT_COUNTS: countsFile } : {}),
    },
  });
  const pid = standalone.app.child.pid;
  if (pid === undefined) {
    await standalone.stop();
    throw new Error('the app has no pid');
  }
  return { target: { base: standalone.base, apiKey: standalone.apiKey, pid }, standalone };
}

/** The rounds' order of the series: forwards in odd rounds, backwards in even ones. */
function roundOrder(series: Series[], round: number): Series[] {
  return round % 2 ? [...series] : [...series].reverse();
}

function ratioLine(
  database: string,
  what: string,
  unit: string,
  value: (series: Series) => number,
  of: Series,
  to: Series,
): string {
  return (
    `${database}: median ${what} ${of} / ${to} = ${(value(of) / value(to)).toFixed(3)} ` +
    `(${Math.round(value(of))} / ${Math.round(value(to))} ${unit})`
  );
}

async function measure(database: string): Promise<string[]> {
  const countsDir = COUNT_STATEMENTS > 0 ? tempDir('bench-order-create-counts') : undefined;
  const countsFile = countsDir ? join(countsDir, 'statement-counts.json') : undefined;
  const started: BenchApp[] = [];
  try {
    const series: Series[] = BASELINE
      ? ['baseline', 'without key', 'with key']
      : ['without key', 'with key'];
    // An app and a database per series: each database grows by the same orders per round (an
    // app shared by two series grew twice as fast, and slowed down with it).
    const targets: Partial<Record<Series, Target>> = {};
    for (const each of series) {
      const app = await startTarget(
        database,
        each === 'baseline' ? BASELINE_PROBE : undefined,
        each === 'without key' ? countsFile : undefined,
      );
      started.push(app.standalone);
      targets[each] = app.target;
    }
    const target = (each: Series): Target => {
      const found = targets[each];
      if (!found) throw new Error(`no app for ${each}`);
      return found;
    };
    const { base, apiKey, pid } = target('without key');
    const counted =
      countsFile !== undefined
        ? await countStatements(base, apiKey, pid, countsFile, database)
        : [];
    if (ROUNDS === 0) return counted;
    // Warm-up: JIT, pools, the database's buffers; every path of every app.
    for (const each of series) await load(target(each), sends(each), 3);
    const results: Partial<Record<Series, Result[]>> = {};
    const cpu: Partial<Record<Series, number[]>> = {};
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
      for (const each of roundOrder(series, round)) {
        const { base: appBase, pid: appPid } = target(each);
        await quiescent(appBase);
        const before = cpuMicros(appPid);
        const result = await load(target(each), sends(each), SECONDS);
        const after = cpuMicros(appPid);
        const perRequest =
          before === undefined || after === undefined
            ? NaN
            : (after - before) / Math.max(1, result.requests.total);
        (results[each] ??= []).push(result);
        (cpu[each] ??= []).push(perRequest);
        lines.push(
          row([
            each,
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
      const settled: Partial<Record<Series, { perSecond: number; cpuPerOrder: number }[]>> = {};
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
        for (const each of roundOrder(series, round)) {
          const result = await settle(target(each), sends(each), SETTLE);
          (settled[each] ??= []).push(result);
          lines.push(
            row([
              each,
              round,
              Math.round(result.perSecond),
              Math.round(result.cpuPerOrder),
              result.failed,
            ]),
          );
        }
      }
      const rate = (each: Series) => median((settled[each] ?? []).map((r) => r.perSecond));
      const cost = (each: Series) => median((settled[each] ?? []).map((r) => r.cpuPerOrder));
      lines.push('');
      const pairs: [Series, Series][] = BASELINE
        ? [
            ['with key', 'baseline'],
            ['without key', 'baseline'],
            ['with key', 'without key'],
          ]
        : [['with key', 'without key']];
      for (const [of, to] of pairs) {
        lines.push(ratioLine(database, 'orders settled per second', 'orders/s', rate, of, to));
        lines.push(ratioLine(database, 'CPU per settled order', 'µs', cost, to, of));
      }
    }
    const rate = (each: Series) => median((results[each] ?? []).map((r) => r.requests.average));
    const cost = (each: Series) => median(cpu[each] ?? []);
    lines.push('');
    const to: Series = BASELINE ? 'baseline' : 'without key';
    for (const of of series.filter((each) => each !== to)) {
      lines.push(ratioLine(database, 'req/s', 'req/s', rate, of, to));
      lines.push(ratioLine(database, 'CPU per request', 'µs', cost, to, of));
    }
    lines.push('');
    return lines;
  } finally {
    for (const standalone of started.reverse()) await standalone.stop();
    if (countsDir) rmSync(countsDir, { recursive: true, force: true });
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
