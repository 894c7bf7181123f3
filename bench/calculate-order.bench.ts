/*
 * PUT /2025-07/cloud/calculate/order through the standalone gateway, against a bare Fastify
 * route answering the same JSON, in the same run (issue #3: at least half the bare rate).
 *
 *   npm run bench:calculate-order [-- --duration 10 --connections 10 --rounds 3 --warmup 10]
 *                                    [--node-flags "--max-semi-space-size=64"] [--log-level log]
 *                                    [--baseline /path/to/other/checkout] [--work] [--bare-spin 45]
 *
 * With --baseline, the standalone app of another checkout (built: `npm run build` there) runs
 * beside this one and each round measures it too: before and after a change, in the same run.
 * With --work, each round also measures bench/work-server.ts: the request's own work (the
 * contract's validation, the pricing, the envelope) in bare Fastify, without the platform (API
 * key, bus, observability); between bare Fastify and the gateway, it splits the gateway's cost
 * into the work and the platform.
 * With --perf DIR (Linux `perf`), each server runs with V8's jitdump (--perf-prof, so that perf
 * names the JavaScript frames, even where V8 moved or freed code) and `perf record -F 4999 -g`
 * samples it in the middle of each of its rounds; the recordings, the jitdumps and what `perf
 * inject --jit` makes of them go to DIR. The run ends with bench/probes/perf-summary.ts's account
 * of the last round of each server: where the CPU of a request went, by binary, by part of the
 * request path, by JavaScript file and by function. Every server runs slower so (the figures of
 * such a run are not the benchmark's), but perf does not stop them as V8's own profiler does.
 * With --bare-spin N, the bare server busy-waits N µs in each request before it answers: a
 * diagnostic, to compare the two servers' system time at about the same request rate (the ratio
 * it prints is then meaningless).
 *
 * The servers are child processes pinned to CPU 0 (when `taskset` exists); this process, the
 * load generator (autocannon), is pinned to CPU 1. The standalone app runs on the embedded
 * database with the rate limit off; its API key is looked up once and then cached. It logs at
 * LOG_LEVEL=warn unless --log-level says otherwise (`log`, the default of a deployment, adds the
 * access-log line of every request; its stdout goes to /dev/null). The bare
 * server parses the same body and serializes the same response, and does nothing else: the ratio
 * is what validation, auth, the bus and the pricing engine cost.
 *
 * Besides req/s it reports each server's CPU time per request (from /proc/<pid>/stat, all
 * threads): on a shared machine other processes steal CPU 0 and move req/s from round to round,
 * while CPU per request stays put; bare CPU / gateway CPU is the ratio a dedicated core would see.
 * The part of it that is system time (the kernel: socket reads and writes, waking the load
 * generator) is printed too.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { Result } from 'autocannon';
import { cpuTimes } from './process-cpu';
import { argNumber, argText, median } from './bench-args';
import { parsePerfScript, summarize } from './probes/perf-summary';

const ROOT = resolve(__dirname, '..', '..');
const PATH = '/2025-07/cloud/calculate/order';
const API_KEY = 'csk_bench_0123456789abcdefghij';

/**
 * A realistic body: two candidate warehouses, a dimensioned parcel with a declared value, to
 * London (so DHL prices DAP and DDP and the US domestic services answer no_zone).
 */
const BODY = JSON.stringify({
  dest_address: { country_code: 'GB', city: 'London', zip_code: 'SW1A 1AA' },
  origin_addresses: [
    { warehouse_code: 'WH-NJ-01', country_code: 'US', city: 'Newark', zip_code: '07114' },
    { warehouse_code: 'WH-CA-01', country_code: 'US', city: 'Ontario', zip_code: '91761' },
  ],
  weight: 1.25,
  weight_unit: 'kg',
  alcohol: 'No',
  battery: 'No',
  liquid: 'Not Applicable',
  declared_value: 59.9,
  currency: 'USD',
  dimension: { length: 30, width: 20, height: 10.5, uom: 'cm' },
});

/** The benchmark's request, as every server gets it (bare Fastify ignores the key). */
const REQUEST: RequestInit = {
  method: 'PUT',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
  body: BODY,
};

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const pinned = existsSync('/usr/bin/taskset') || existsSync('/bin/taskset');

/** Node.js flags for both servers (same for both, so the comparison stays fair). */
function nodeFlags(): string[] {
  const flags = argText('node-flags', '').split(' ').filter(Boolean);
  // The jitdump perf inject reads: every piece of code V8 made, with when and where it lived;
  // and the code log V8 keeps beside it in the same folder, not in the working directory.
  return PERF_DIR
    ? [
        ...flags,
        '--perf-prof',
        `--perf-prof-path=${PERF_DIR}`,
        '--interpreted-frames-native-stack',
        '--no-logfile-per-isolate',
        `--logfile=${join(PERF_DIR, 'v8-%p.log')}`,
      ]
    : flags;
}

/** `--perf`: where the recordings go, and how often perf samples (Hz). */
const PERF_DIR = argText('perf', '') && resolve(argText('perf', ''));
const PERF_FREQUENCY = 4999;

interface PerfRecording {
  file: string;
  /** The part of the round perf recorded. */
  seconds: number;
  done: Promise<void>;
}

/** `perf record` of a server from 1 s into a round of `seconds` until 1 s before its end. */
function recordPerf(pid: number, file: string, seconds: number): PerfRecording {
  const window = Math.max(1, seconds - 2);
  const done = new Promise<void>((resolveDone, fail) => {
    setTimeout(() => {
      // -k mono: the jitdump's clock, so that perf inject can place each sample's code.
      const perf = spawn(
        'perf',
        [
          'record',
          '-q',
          '-k',
          'mono',
          '-F',
          String(PERF_FREQUENCY),
          '-g',
          '-p',
          String(pid),
          '-o',
          file,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      // `perf record -p` stops on SIGINT and writes its file.
      const timer = setTimeout(() => perf.kill('SIGINT'), window * 1000);
      perf.once('error', fail);
      perf.once('exit', () => {
        clearTimeout(timer);
        resolveDone();
      });
    }, 1000);
  });
  return { file, seconds: window, done };
}

function startPinned(args: string[], env: Record<string, string>): ChildProcess {
  const node = [...nodeFlags(), ...args];
  const [command, argv] = pinned
    ? ['taskset', ['-c', '0', process.execPath, ...node]]
    : [process.execPath, node];
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) process.stderr.write(`${args[0]} exited with ${code ?? signal}\n`);
  });
  return child;
}

async function waitFor(url: string, init: RequestInit, timeoutMs = 60_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, init);
      if (response.ok) return response;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

async function load(url: string, seconds: number, connections: number): Promise<Result> {
  const result = await autocannon({
    url,
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
    body: BODY,
    connections,
    duration: seconds,
  });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(
      `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  return result;
}

interface Round {
  rate: number;
  /** With --perf: the recording, and the requests served meanwhile (by the round's rate). */
  perf?: { file: string; requests: number };
  /** Server CPU µs per request, when measurable. */
  cpu: number | undefined;
  /** Of which in the kernel (system time): the socket reads and writes, mostly. */
  system: number | undefined;
  result: Result;
}

/** A server measured beside the gateway in every round (--baseline, --work). */
interface Other {
  /** In the round lines. */
  name: string;
  /** In the summary. */
  title: string;
  url: string;
  child: ChildProcess;
  rounds: Round[];
}

async function measure(
  url: string,
  pid: number | undefined,
  seconds: number,
  connections: number,
  perfFile?: string,
): Promise<Round> {
  const before = cpuTimes(pid);
  const recording = perfFile && pid ? recordPerf(pid, perfFile, seconds) : undefined;
  const result = await load(url, seconds, connections);
  const after = cpuTimes(pid);
  await recording?.done;
  const requests = result.requests.total;
  const perf = recording && {
    file: recording.file,
    requests: Math.round((requests * recording.seconds) / seconds),
  };
  if (!before || !after)
    return { rate: result.requests.average, cpu: undefined, system: undefined, result, perf };
  const system = (after.system - before.system) / requests;
  const cpu = (after.user - before.user) / requests + system;
  return { rate: result.requests.average, cpu, system, result, perf };
}

/** perf-summary.ts's account of a round's recording, its JavaScript frames named by the jitdump. */
function perfSummary(title: string, round: Round): string {
  if (!round.perf) return '';
  const injected = round.perf.file.replace(/\.data$/, '.jit.data');
  execFileSync('perf', ['inject', '--jit', '-i', round.perf.file, '-o', injected], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const script = execFileSync('perf', ['script', '-i', injected], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (
    `\n${title}, perf record -F ${PERF_FREQUENCY} -g of the last round (${round.perf.file}):\n` +
    summarize(parsePerfScript(script), {
      top: 25,
      perRequest: 1e6 / PERF_FREQUENCY / round.perf.requests,
    })
  );
}

/** The bare comparison: Fastify alone, answering the canned response. */
async function bareServer(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only in the child
  const fastify = require('fastify') as typeof import('fastify').default;
  const response = readFileSync(process.env.BENCH_RESPONSE_FILE as string, 'utf8');
  const data: unknown = JSON.parse(response);
  const spin = BigInt(Number(process.env.BENCH_BARE_SPIN_US ?? 0) * 1000);
  const app = fastify({ logger: false });
  app.put(PATH, async () => {
    if (spin > 0n) {
      const until = process.hrtime.bigint() + spin;
      while (process.hrtime.bigint() < until);
    }
    return data;
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

async function main(): Promise<void> {
  const duration = argNumber('duration', 10);
  const connections = argNumber('connections', 10);
  const rounds = argNumber('rounds', 3);
  const warmup = argNumber('warmup', 10);
  const logLevel = argText('log-level', 'warn');
  const standaloneMain = join(ROOT, 'dist', 'apps', 'standalone', 'src', 'main.js');
  if (!existsSync(standaloneMain)) throw new Error('build first: npm run build');
  if (pinned) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

  // Before the servers start: V8 writes their jitdumps there.
  if (PERF_DIR) mkdirSync(PERF_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'consign-bench-'));
  const children: ChildProcess[] = [];
  const cleanups: (() => void)[] = [];
  try {
    const appPort = await freePort();
    children.push(
      startPinned([standaloneMain], {
        PORT: String(appPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        BOOTSTRAP_API_KEY: API_KEY,
        RATE_LIMIT_MAX: '0',
        LOG_LEVEL: logLevel,
      }),
    );
    const appUrl = `http://127.0.0.1:${appPort}${PATH}`;
    // Servers measured beside the gateway in every round: another checkout's, the work alone.
    const others: Other[] = [];
    const baselineRoot = argText('baseline', '');
    if (baselineRoot) {
      const baselineMain = join(
        resolve(baselineRoot),
        'dist',
        'apps',
        'standalone',
        'src',
        'main.js',
      );
      if (!existsSync(baselineMain)) throw new Error(`build the baseline first: ${baselineMain}`);
      const baselinePort = await freePort();
      const baselineData = mkdtempSync(join(tmpdir(), 'consign-bench-baseline-'));
      const child = startPinned([baselineMain], {
        PORT: String(baselinePort),
        HOST: '127.0.0.1',
        DATA_DIR: baselineData,
        BOOTSTRAP_API_KEY: API_KEY,
        RATE_LIMIT_MAX: '0',
        LOG_LEVEL: logLevel,
      });
      children.push(child);
      cleanups.push(() => rmSync(baselineData, { recursive: true, force: true }));
      others.push({
        name: 'baseline',
        title: `baseline (${baselineRoot})`,
        url: `http://127.0.0.1:${baselinePort}${PATH}`,
        child,
        rounds: [],
      });
    }
    if (process.argv.includes('--work')) {
      const workPort = await freePort();
      const child = startPinned([join(__dirname, 'work-server.js'), PATH], {
        PORT: String(workPort),
      });
      children.push(child);
      others.push({
        name: 'work only',
        title: 'work only (bench/work-server.ts)',
        url: `http://127.0.0.1:${workPort}${PATH}`,
        child,
        rounds: [],
      });
    }
    const sample = await waitFor(appUrl, REQUEST);
    const response = await sample.text();
    for (const other of others) {
      const otherSample = await waitFor(other.url, REQUEST);
      if ((await otherSample.text()) !== response)
        throw new Error(`the ${other.name} server answers calculate/order differently`);
    }
    const responseFile = join(dataDir, 'response.json');
    writeFileSync(responseFile, response);

    const barePort = await freePort();
    children.push(
      startPinned([__filename, '--bare-server'], {
        PORT: String(barePort),
        BENCH_RESPONSE_FILE: responseFile,
        BENCH_BARE_SPIN_US: String(argNumber('bare-spin', 0)),
      }),
    );
    const bareUrl = `http://127.0.0.1:${barePort}${PATH}`;
    await waitFor(bareUrl, REQUEST);

    process.stdout.write(
      `calculate/order: ${Buffer.byteLength(BODY)} B body, ${Buffer.byteLength(response)} B ` +
        `response, ${connections} connections, ${warmup} s warm-up, ${rounds} × ${duration} s each, ` +
        `Node.js ${process.version}` +
        `${pinned ? ', servers on CPU 0, load on CPU 1' : ''}, LOG_LEVEL=${logLevel}` +
        `${nodeFlags().length ? `, node ${nodeFlags().join(' ')}` : ''}` +
        `${argNumber('bare-spin', 0) > 0 ? `, bare server spinning ${argNumber('bare-spin', 0)} µs a request` : ''}` +
        `${haltPollText()}, load average ${loadText()}\n`,
    );
    // Warm up every server (JIT, caches): V8 compiles the gateway's larger code on the same CPU for
    // several seconds, and a round measured meanwhile read up to 40 % more CPU a request.
    await load(appUrl, warmup, connections);
    await load(bareUrl, warmup, connections);
    for (const other of others) await load(other.url, warmup, connections);
    const [appPid, barePid] = [children[0].pid, children.at(-1)?.pid];
    const bare: Round[] = [];
    const app: Round[] = [];
    const perfFile = (server: string, round: number) =>
      PERF_DIR ? join(PERF_DIR, `${server}-${round}.data`) : undefined;
    for (let round = 1; round <= rounds; round++) {
      const b = await measure(bareUrl, barePid, duration, connections, perfFile('bare', round));
      const a = await measure(appUrl, appPid, duration, connections, perfFile('gateway', round));
      bare.push(b);
      app.push(a);
      let besides = '';
      for (const other of others) {
        const o = await measure(
          other.url,
          other.child.pid,
          duration,
          connections,
          perfFile(other.name.replace(/\W+/g, '-'), round),
        );
        other.rounds.push(o);
        besides += `, ${other.name} ${o.rate.toFixed(0)} req/s${cpuText(o.cpu, o.system)}, ratio ${(o.rate / b.rate).toFixed(2)}`;
      }
      process.stdout.write(
        `round ${round}: bare ${b.rate.toFixed(0)} req/s${cpuText(b.cpu, b.system)}, ` +
          `standalone ${a.rate.toFixed(0)} req/s${cpuText(a.cpu, a.system)}, ratio ${(a.rate / b.rate).toFixed(2)}${besides}\n`,
      );
    }
    const latency = (results: Round[]) =>
      `p50 ${median(results.map((r) => r.result.latency.p50))} ms, ` +
      `p99 ${median(results.map((r) => r.result.latency.p99))} ms`;
    const cpuOf = (results: Round[]) =>
      results.every((r) => r.cpu !== undefined) ? median(results.map((r) => r.cpu!)) : undefined;
    const systemOf = (results: Round[]) =>
      results.every((r) => r.system !== undefined)
        ? median(results.map((r) => r.system!))
        : undefined;
    const [bareCpu, appCpu] = [cpuOf(bare), cpuOf(app)];
    process.stdout.write(
      `bare Fastify:        ${median(bare.map((r) => r.rate)).toFixed(0)} req/s${cpuText(bareCpu, systemOf(bare))} (${latency(bare)})\n` +
        `standalone gateway:  ${median(app.map((r) => r.rate)).toFixed(0)} req/s${cpuText(appCpu, systemOf(app))} (${latency(app)})\n` +
        `ratio (median of rounds, req/s): ${median(app.map((r, i) => r.rate / bare[i].rate)).toFixed(2)} (target ≥ 0.50)\n` +
        (bareCpu && appCpu
          ? `ratio (CPU per request, bare / gateway): ${(bareCpu / appCpu).toFixed(2)}\n`
          : '') +
        others
          .map(
            ({ title, rounds: runs }) =>
              `${title}: ${median(runs.map((r) => r.rate)).toFixed(0)} req/s${cpuText(cpuOf(runs), systemOf(runs))}, ` +
              `ratio ${median(runs.map((r, i) => r.rate / bare[i].rate)).toFixed(2)}` +
              (bareCpu && cpuOf(runs) ? `, CPU ratio ${(bareCpu / cpuOf(runs)!).toFixed(2)}` : '') +
              '\n',
          )
          .join('') +
        `load average at the end: ${loadText()}\n`,
    );
    if (PERF_DIR)
      process.stdout.write(
        perfSummary('standalone gateway', app.at(-1)!) +
          others.map((other) => perfSummary(other.title, other.rounds.at(-1)!)).join('') +
          perfSummary('bare Fastify', bare.at(-1)!),
      );
  } finally {
    for (const child of children.reverse()) await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
    for (const cleanup of cleanups) cleanup();
  }
}

/** The machine's 1, 5 and 15 minute load averages: figures from a busy machine are not comparable. */
function loadText(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

/**
 * Where the Linux guest has cpuidle-haltpoll, how long an idle vCPU polls before it halts. The
 * guests of docs/benchmarks.md since session 21 boot with `haltpoll.guest_halt_poll_ns=0` (the
 * module's default is 200,000): a response that finds the load generator's CPU halted wakes it
 * through the hypervisor, and the server that sends it pays. There, halting at once cost the
 * gateway ≈ 11 µs of system time a request and bare Fastify ≈ 4, so the setting moves the ratio:
 * print it with the figures.
 */
function haltPollText(): string {
  const file = '/sys/module/haltpoll/parameters/guest_halt_poll_ns';
  if (!existsSync(file)) return '';
  return `, guest halt polling ${readFileSync(file, 'utf8').trim()} ns`;
}

function cpuText(cpu: number | undefined, system?: number): string {
  if (cpu === undefined) return '';
  const kernel = system === undefined ? '' : `, ${system.toFixed(0)} of them system`;
  return ` (${cpu.toFixed(0)} µs CPU/request${kernel})`;
}

if (process.argv.includes('--bare-server')) {
  void bareServer();
} else {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
