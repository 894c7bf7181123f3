import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';

/*
 * A Kafka-protocol broker for tests: Mokapi (npm `go-mokapi`, Go binary) configured by an AsyncAPI
 * document. What Mokapi 0.52 is and is not (measured; see also libs/bus/src/kafka):
 *
 * - Only declared topics exist: metadata for, or producing to, anything else is
 *   UNKNOWN_TOPIC_OR_PARTITION whatever `allowAutoTopicCreation` says. Declare reply topics
 *   (`<pattern>.reply`) too. Topic name = the channel's `address`.
 * - A channel with a message `payload` schema is validated on produce: a null value or non-JSON is
 *   INVALID_RECORD. Nest's request-reply sends null values on reply topics (error replies, void
 *   handlers), so reply topics carry no message schema; this harness declares none at all.
 * - The Kafka listener binds every interface (`:port`, hard-coded in Mokapi); the AsyncAPI
 *   `host` only sets the advertised address. So this harness advertises 127.0.0.1 and picks a
 *   free random port; it cannot restrict the bind to loopback. The HTTP API cannot be switched off
 *   either: it gets a random free port (`--api-port=0`), its dashboard, search index, health and
 *   MCP endpoints are disabled.
 * - Group coordination: every (re)join waits `group.initial.rebalance.delay.ms` (0 means Mokapi's
 *   default 3000, so the minimum is 1). There is no LeaveGroup: a stopped member keeps its
 *   partitions until Mokapi notices its session timed out (checked every 6 s). A group with more
 *   members than partitions crashes the broker process (kafkajs' assigner leaves the idle member
 *   out of the assignment; Mokapi dereferences it): one member per group, or partitions >= members
 *   and a rebalance delay above the consumers' heartbeat interval.
 * - No compression (a gzip batch is acknowledged but never delivered, and that connection never
 *   answers again), no transactions; the idempotent producer works. Data lives in memory only.
 * - Busy offset commits kill it: for every partition of an OffsetCommit it writes the group's
 *   offset map and starts a goroutine that reads that map without a lock; a read during the next
 *   write is "fatal error: concurrent map read and map write" (in processMetricsOffsetCommit; or
 *   in UpdateMetrics, which reads every group's map after each produce) and the broker exits 2.
 *   This harness runs Mokapi with GOMAXPROCS=1, which closes that window (mokapiEnv). Processes
 *   on it also commit at most once per MOKAPI_COMMIT_INTERVAL_MS, one partition per request
 *   (BUS_COMMIT_INTERVAL_MS). A death of this kind is named as such (deathCause, and the message
 *   printed when the broker ends unexpectedly).
 * - Now and then a fetch serves a new record without its value, so that the consumer reads the
 *   record's headers as its value and finds no headers: seen when two consumer groups fetched
 *   the same new reply within milliseconds: about once in 3,000 request-replies, measured with
 *   a temporary load probe that is not kept (four to eight clients of calculate/order beside a
 *   CPU hog). Every consumer of the bus reads such a record again, once (ReadAgainOnce in
 *   libs/bus: the reply consumer, the services' servers and the batch consumers).
 * - Mokapi watches the directory of its config file and loads every file in it (even .js as
 *   scripts): the document sits alone in its own directory.
 */

/**
 * BUS_COMMIT_INTERVAL_MS for every process on this broker: a commit per second per consumer at
 * most, instead of one per fetched batch, leaves Mokapi's offset-commit race (above) almost no
 * window. Replays after a crash grow to at most a second's messages, which every consumer
 * deduplicates (the command record, the inbox).
 */
export const MOKAPI_COMMIT_INTERVAL_MS = 1000;

/**
 * KAFKA_FETCH_MAX_WAIT_MS for every process on this broker. Mokapi reads its log every
 * min(wait / 5, 100) ms while it holds an empty fetch, so a message waits there up to 50 ms at
 * 250 and up to 100 ms from 500 up, on each hop. The scenarios are mostly such waits: the
 * webhooks and label-lifecycle suites took 107 s at 250 against 115 s at the product's default
 * (1,000; real Kafka answers a held fetch at once, whatever the wait). The price is about
 * 20 fetches a second per idle consumer: an idle deployment takes 52 % of a core instead of 22 %
 * (docs/benchmarks.md).
 */
export const MOKAPI_FETCH_MAX_WAIT_MS = 250;

/**
 * BUS_TIMEOUT_MS for every process on this broker, unless a suite sets its own (the suites that
 * test the deadline itself do: bus-failure, idempotency, kill-suite). On a loaded machine Mokapi
 * stalls for 10-14 s at times (kill-suite.e2e.spec.ts), and has held a label create in the
 * label-lifecycle scenarios past the product's default of 10 s. The scenarios test the flows,
 * not how long the broker may stall one of them. (The 504s of CI at bdcb414 and 3d2bd6b match
 * the replies served without their value, above, as reproduced under load, rather than stalls.)
 */
export const MOKAPI_BUS_TIMEOUT_MS = 30_000;

/**
 * The functions of Mokapi 0.52 that read a group's committed offsets without a lock: after each
 * commit (processMetricsOffsetCommit) and after each produce (UpdateMetrics, the lag gauge).
 */
const COMMIT_MAP_READERS = /\(\*Store\)\.(processMetricsOffsetCommit|UpdateMetrics)\(/;

/** Mokapi's offset-commit race, from its output (see above). */
export function isMokapiCommitRace(output: string): boolean {
  return (
    /fatal error: concurrent map (read and map write|writes)/.test(output) &&
    COMMIT_MAP_READERS.test(output)
  );
}

/** What a dead Mokapi's output says killed it: the Go fatal error and its goroutine, if any. */
export function mokapiDeathCause(fatalOutput: string): string | undefined {
  if (!fatalOutput) return undefined;
  const first = fatalOutput.split('\n')[0];
  const reader = COMMIT_MAP_READERS.exec(fatalOutput)?.[1];
  return reader && isMokapiCommitRace(fatalOutput)
    ? `Mokapi 0.52's own offset-commit race (${first} in ${reader}: a bug of the test broker, ` +
        'not of Consign; see libs/testing/src/kafka/mokapi-broker.ts)'
    : first;
}

export interface MokapiTopic {
  name: string;
  /** Default 1. A consumer group must not have more members than partitions (see above). */
  partitions?: number;
  /** Mokapi channel binding `retention.ms`. */
  retentionMs?: number;
  description?: string;
}

export type MokapiTopicInput = string | MokapiTopic;

export interface MokapiAsyncApiOptions {
  /** Request and event topics. */
  topics: readonly MokapiTopicInput[];
  /** Reply topics, full names (see replyTopicOf). Declared without a message schema. */
  replyTopics?: readonly MokapiTopicInput[];
  /** Advertised `host:port` of the single broker. Default 127.0.0.1:9092. */
  host?: string;
  /** `info.title`; Mokapi reports it as the cluster id. */
  title?: string;
  version?: string;
  /**
   * `group.initial.rebalance.delay.ms` (clamped to >= 1: 0 would mean Mokapi's 3000). Each
   * consumer-group join waits this long. Default 50: tests run one member per group, so a join
   * needs no waiting for others. With several members in one group use >= 1500 (above the
   * consumers' heartbeat interval plus fetch wait, so live members notice and rejoin).
   */
  rebalanceDelayMs?: number;
}

export const DEFAULT_MOKAPI_REBALANCE_DELAY_MS = 50;

export interface AsyncApiDocument {
  asyncapi: '3.0.0';
  info: { title: string; version: string; description?: string };
  servers: Record<string, AsyncApiServer>;
  channels: Record<string, AsyncApiChannel>;
}

export interface AsyncApiServer {
  host: string;
  protocol: 'kafka';
  description?: string;
  bindings: { kafka: Record<string, string | number> };
}

export interface AsyncApiChannel {
  address: string;
  description?: string;
  bindings?: { kafka: { partitions?: number; 'retention.ms'?: number } };
}

function normaliseTopic(input: MokapiTopicInput): MokapiTopic {
  return typeof input === 'string' ? { name: input } : input;
}

/**
 * The AsyncAPI 3 document Mokapi needs for these topics: one kafka server, one channel per topic
 * (channel key = address = topic name), no messages, so Mokapi validates nothing. Pure.
 */
export function renderMokapiAsyncApi(options: MokapiAsyncApiOptions): AsyncApiDocument {
  const delay = Math.max(
    1,
    Math.round(options.rebalanceDelayMs ?? DEFAULT_MOKAPI_REBALANCE_DELAY_MS),
  );
  const channels: Record<string, AsyncApiChannel> = {};
  const declare = (input: MokapiTopicInput, kind: 'topic' | 'reply'): void => {
    const topic = normaliseTopic(input);
    if (!/^[A-Za-z0-9._-]{1,249}$/.test(topic.name))
      throw new Error(`invalid Kafka topic name: "${topic.name}"`);
    if (channels[topic.name]) throw new Error(`topic declared twice: ${topic.name}`);
    const kafka: { partitions?: number; 'retention.ms'?: number } = {};
    if (topic.partitions !== undefined) kafka.partitions = topic.partitions;
    if (topic.retentionMs !== undefined) kafka['retention.ms'] = topic.retentionMs;
    const description =
      topic.description ??
      (kind === 'reply' ? 'Request-reply replies (null values allowed): no schema.' : undefined);
    channels[topic.name] = {
      address: topic.name,
      ...(description ? { description } : {}),
      ...(Object.keys(kafka).length ? { bindings: { kafka } } : {}),
    };
  };
  for (const topic of options.topics) declare(topic, 'topic');
  for (const topic of options.replyTopics ?? []) declare(topic, 'reply');
  return {
    asyncapi: '3.0.0',
    info: { title: options.title ?? 'consign', version: options.version ?? '1.0.0' },
    servers: {
      broker: {
        host: options.host ?? '127.0.0.1:9092',
        protocol: 'kafka',
        bindings: { kafka: { 'group.initial.rebalance.delay.ms': delay } },
      },
    },
    channels,
  };
}

export interface StartMokapiBrokerOptions extends Omit<MokapiAsyncApiOptions, 'host' | 'title'> {
  /** How long to wait for the broker to serve metadata. Default 20 s. */
  startTimeoutMs?: number;
  /** Mokapi log level; its output is kept (last lines) for error messages. Default info. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Also copy Mokapi's output to this process's stderr (or set MOKAPI_LOG=1). */
  echoLogs?: boolean;
  /**
   * Listen on this port instead of a free one: a broker started again after an outage, where
   * the clients still know the old address. Taken ports are not retried.
   */
  port?: number;
  /**
   * GOMAXPROCS for Mokapi. Default 1, which keeps it from dying of its offset-commit race (see
   * mokapiEnv); bench/probes/mokapi-commit-race.ts sets more to show the race.
   */
  goMaxProcs?: number;
}

export interface MokapiBroker {
  /** `127.0.0.1:<port>`: the value for KAFKA_BROKERS. */
  readonly brokers: string;
  readonly port: number;
  /** Process group of the broker (its watchdog shell and Mokapi). */
  readonly pgid: number;
  /** The AsyncAPI document it runs. */
  readonly document: AsyncApiDocument;
  /** The last lines Mokapi printed. */
  logs(): string;
  /** Whether the broker process is still running (Mokapi exits on some bugs, see above). */
  isRunning(): boolean;
  /**
   * How the broker ended, once it has: Mokapi's exit code (128 + n when signal n killed it, as
   * the watchdog shell reports it), or undefined while it runs.
   */
  exitStatus(): string | undefined;
  /**
   * Why it died, when its output says (a Go fatal error, e.g. its offset-commit race, which
   * isMokapiCommitRace recognises); undefined while it runs or when it died saying nothing.
   */
  deathCause(): string | undefined;
  /** Its output from its first Go "fatal error:" line on (at most 60 lines); '' when none. */
  crashOutput(): string;
  /** Stops the broker (the whole process group) and removes its files. Idempotent. */
  stop(): Promise<void>;
  /** Freezes the broker (SIGSTOP): connections stay open and nothing answers, as in a stall. */
  freeze(): void;
  /** Lets a frozen broker go on (SIGCONT). */
  thaw(): void;
}

const DIR_PREFIX = 'consign-mokapi-';
const REGISTRY_FILE = 'broker.json';
const LOG_LINES = 300;
/** Lines kept from a Go fatal error on: the error, then the failing goroutine's stack. */
const FATAL_LINES = 60;

interface RegistryEntry {
  pgid: number;
  port: number;
  ownerPid: number;
  ownerParentPid: number;
  startedAt: string;
}

/** Brokers started by this process and not stopped yet. */
const running = new Set<RunningBroker>();
let exitHookInstalled = false;

/**
 * Starts Mokapi on a free port with the given topics, resolves once it serves metadata listing
 * every declared topic. The process is a child of a tiny watchdog shell that kills it when this
 * process dies (its stdin pipe closes), so a crashed or killed jest worker leaves nothing behind.
 */
export async function startMokapiBroker(options: StartMokapiBrokerOptions): Promise<MokapiBroker> {
  if (options.port !== undefined) return launch(options.port, options);
  let lastError: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    const port = await freePort();
    try {
      return await launch(port, options);
    } catch (error: unknown) {
      lastError = error;
      if (!(error instanceof PortTakenError)) throw error;
    }
  }
  throw lastError;
}

/** Stops every broker this process started (e.g. in afterAll when a test lost track of one). */
export async function stopMokapiBrokers(): Promise<void> {
  await Promise.all([...running].map((broker) => broker.stop()));
}

/**
 * For jest's globalTeardown (runs in jest's main process, after every worker finished): stops
 * the brokers started by this process or by its workers that are still running, and those whose
 * owner process is gone. Brokers of other, concurrent jest runs are left alone. Returns how many
 * it stopped.
 */
export async function reapMokapiBrokers(): Promise<number> {
  let reaped = running.size;
  await stopMokapiBrokers();
  const base = tmpdir();
  let names: string[];
  try {
    names = readdirSync(base).filter((name) => name.startsWith(DIR_PREFIX));
  } catch {
    return 0;
  }
  for (const name of names) {
    const dir = join(base, name);
    const entry = readRegistry(dir);
    if (!entry) continue;
    const ours = entry.ownerPid === process.pid || entry.ownerParentPid === process.pid;
    if (!ours && processAlive(entry.ownerPid)) continue;
    if (isMokapiGroup(entry.pgid)) {
      signalGroup(entry.pgid, 'SIGTERM');
      if (!(await waitFor(() => !groupAlive(entry.pgid), 2000))) signalGroup(entry.pgid, 'SIGKILL');
      reaped++;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return reaped;
}

/** A jest `globalTeardown` module can `export default mokapiGlobalTeardown`. */
export async function mokapiGlobalTeardown(): Promise<void> {
  await reapMokapiBrokers();
}

class PortTakenError extends Error {}

interface RunningBroker extends MokapiBroker {
  killNow(): void;
}

function mokapiBinary(): string {
  const fromEnv = process.env['MOKAPI_BIN'];
  if (fromEnv) return fromEnv;
  const os = process.platform === 'win32' ? 'win32' : process.platform;
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const pkg = `@go-mokapi/${os}-${arch}`;
  try {
    return join(
      dirname(require.resolve(`${pkg}/package.json`)),
      'bin',
      os === 'win32' ? 'mokapi.exe' : 'mokapi',
    );
  } catch {
    throw new Error(
      `Mokapi binary package ${pkg} is not installed (npm package go-mokapi); or set MOKAPI_BIN`,
    );
  }
}

/*
 * The watchdog shell runs Mokapi in the background and `cat` on our stdin pipe in a subshell:
 * when this process dies or closes the pipe, cat sees end-of-file and Mokapi is terminated; when
 * Mokapi exits by itself (it crashes on some bugs), the shell ends its whole process group and
 * exits with Mokapi's code. The shell leads its own process group (detached), so stop() signals
 * shell, cat and Mokapi together. Asynchronous commands get /dev/null as stdin, hence fd 3.
 */
const WATCHDOG = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- & child=$!',
  '(cat <&3 >/dev/null; kill -TERM "$child" 2>/dev/null) &',
  'exec 3<&-',
  'wait "$child"; code=$?',
  "trap '' TERM; kill -TERM 0 2>/dev/null; exit $code",
].join('\n');

async function launch(port: number, options: StartMokapiBrokerOptions): Promise<MokapiBroker> {
  const binary = mokapiBinary();
  const clusterId = `consign-test-${randomBytes(6).toString('hex')}`;
  const document = renderMokapiAsyncApi({
    ...options,
    host: `127.0.0.1:${port}`,
    title: clusterId,
  });
  const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
  const configDir = join(dir, 'asyncapi');
  mkdirSync(configDir);
  const configFile = join(configDir, 'asyncapi.json');
  writeFileSync(configFile, JSON.stringify(document, null, 2));

  const args = [
    binary,
    '--api-port=0',
    '--api-dashboard=false',
    '--api-search-enabled=false',
    '--health-enabled=false',
    '--mcp-server-enabled=false',
    `--log-level=${options.logLevel ?? 'info'}`,
    configFile,
  ];
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'mokapi-watchdog', ...args], {
    cwd: dir,
    env: mokapiEnv(options.goMaxProcs ?? 1),
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error('could not start the Mokapi watchdog shell');
  }
  const pgid = child.pid;
  const entry: RegistryEntry = {
    pgid,
    port,
    ownerPid: process.pid,
    ownerParentPid: process.ppid,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(join(dir, REGISTRY_FILE), JSON.stringify(entry));

  const lines: string[] = [];
  /**
   * From Mokapi's first "fatal error:" line on, its first lines: a Go crash prints every
   * goroutine's stack after it, which would push the cause out of `lines`.
   */
  const fatal: string[] = [];
  const echo = options.echoLogs ?? process.env['MOKAPI_LOG'] === '1';
  // Every line, kept past the broker's end (CONSIGN_MOKAPI_LOG_DIR): to read what happened
  // before a death.
  const logDir = process.env['CONSIGN_MOKAPI_LOG_DIR'];
  const logFile = logDir ? join(logDir, `mokapi-${port}-${Date.now()}.log`) : undefined;
  if (logDir) mkdirSync(logDir, { recursive: true });
  let portTaken = false;
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    if (echo) process.stderr.write(text);
    if (logFile) appendFileSync(logFile, text);
    if (/address already in use/.test(text)) portTaken = true;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if ((fatal.length > 0 || line.startsWith('fatal error:')) && fatal.length < FATAL_LINES)
        fatal.push(line);
    }
    if (lines.length > LOG_LINES) lines.splice(0, lines.length - LOG_LINES);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exited = false;
  let stopRequested = false;
  let exitStatus: string | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitStatus = signal ? `signal ${signal}` : `code ${code}`;
      const line = `[harness] Mokapi (watchdog shell) exited with ${exitStatus} at ${new Date().toISOString()}`;
      lines.push(line);
      if (logFile) appendFileSync(logFile, `${line}\n`);
      // Nobody asked it to stop: say so at once, with its last words, whatever the test does.
      if (!stopRequested) {
        const cause = mokapiDeathCause(fatal.join('\n'));
        process.stderr.write(
          `Mokapi broker on port ${port} ended unexpectedly (${exitStatus})` +
            (cause ? `\n*** died of ${cause} ***\n${fatal.join('\n')}\n` : '') +
            `; its last lines:\n${lines.slice(-40).join('\n')}\n`,
        );
      }
      resolve();
    }),
  );
  void exit.then(() => (exited = true));
  child.stdin?.on('error', () => undefined);
  // Neither the process nor its pipes keep this process alive: if a test forgets stop(), jest
  // still exits, the pipe closes and the watchdog ends Mokapi.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as Socket | null)?.unref();

  let stopping: Promise<void> | undefined;
  const broker: RunningBroker = {
    brokers: `127.0.0.1:${port}`,
    port,
    pgid,
    document,
    logs: () => lines.join('\n'),
    isRunning: () => !exited && groupAlive(pgid),
    exitStatus: () => exitStatus,
    deathCause: () => (exitStatus === undefined ? undefined : mokapiDeathCause(fatal.join('\n'))),
    crashOutput: () => fatal.join('\n'),
    killNow: () => {
      stopRequested = true;
      signalGroup(pgid, 'SIGKILL');
    },
    freeze: () => signalGroup(pgid, 'SIGSTOP'),
    thaw: () => signalGroup(pgid, 'SIGCONT'),
    stop: () => {
      stopRequested = true;
      return (stopping ??= stopBroker(child, pgid, dir, exit, broker));
    },
  };
  running.add(broker);
  installExitHook();

  const timeoutMs = options.startTimeoutMs ?? 20_000;
  const declared = Object.keys(document.channels);
  const ready = await waitUntilServing(
    broker.brokers,
    clusterId,
    declared,
    timeoutMs,
    () => exited || portTaken,
  );
  if (!ready) {
    const why = portTaken
      ? 'port taken'
      : exited
        ? 'Mokapi exited'
        : `not serving after ${timeoutMs} ms`;
    const logs = broker.logs();
    await broker.stop();
    if (portTaken) throw new PortTakenError(`Mokapi could not bind port ${port}`);
    throw new Error(
      `Mokapi broker on ${broker.brokers} did not start (${why}). Its output:\n${logs}`,
    );
  }
  return broker;
}

/**
 * Our environment without MOKAPI_* variables (Mokapi reads every one as a setting of its own and
 * exits at once, code 0 and no other output, on a name it does not know, e.g. this harness's
 * MOKAPI_LOG or MOKAPI_BIN), and GOMAXPROCS. At 1, Go code runs on one thread at a time, and the
 * Go runtime never preempts a goroutine inside its own map functions: a map write runs to its end
 * before any read (short of a garbage-collection assist parking a write that grows the map), so
 * the offset-commit race (above) has no window left. Measured with
 * bench/probes/mokapi-commit-race.ts beside a CPU hog (docs/benchmarks.md, "The test broker's
 * own race"): 6 deaths in 181 s of commits as kafkajs' auto-commit makes them, none in 270 s
 * with GOMAXPROCS=1, which handled more messages a second.
 */
function mokapiEnv(goMaxProcs: number): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('MOKAPI_')),
    ),
    GOMAXPROCS: String(goMaxProcs),
  };
}

async function stopBroker(
  child: ChildProcess,
  pgid: number,
  dir: string,
  exit: Promise<void>,
  broker: RunningBroker,
): Promise<void> {
  running.delete(broker);
  child.stdin?.destroy();
  signalGroup(pgid, 'SIGTERM');
  // A frozen broker handles the signal only once it runs again.
  signalGroup(pgid, 'SIGCONT');
  await within(exit, 3000);
  if (!(await waitFor(() => !groupAlive(pgid), 2000))) {
    signalGroup(pgid, 'SIGKILL');
    await waitFor(() => !groupAlive(pgid), 2000);
  }
  rmSync(dir, { recursive: true, force: true });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Synchronous last resort on a normal exit; a hard kill is covered by the watchdog.
  process.once('exit', () => {
    for (const broker of running) broker.killNow();
  });
}

/**
 * Ready = the port accepts connections and the broker answers metadata with our cluster id (so
 * it is our Mokapi, not whatever else took the port) and every declared topic.
 */
async function waitUntilServing(
  brokers: string,
  clusterId: string,
  topics: string[],
  timeoutMs: number,
  failed: () => boolean,
): Promise<boolean> {
  const kafka = new Kafka({
    clientId: 'mokapi-harness',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 500,
    requestTimeout: 2000,
    retry: { retries: 0 },
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !failed()) {
    if (await portOpen(brokers)) {
      const admin = kafka.admin();
      try {
        await admin.connect();
        const cluster = await admin.describeCluster();
        const listed = new Set(await admin.listTopics());
        if (cluster.clusterId === clusterId && topics.every((topic) => listed.has(topic)))
          return true;
      } catch {
        // not serving yet
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
    await delay(25);
  }
  return false;
}

function portOpen(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port), host, () => done(true));
  });
}

/** A port free on every interface (Mokapi binds them all). */
function freePort(): Promise<number> {
  const tryHost = (host: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.once('error', reject);
      server.listen({ port: 0, host, exclusive: true }, () => {
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(port));
      });
    });
  return tryHost('::').catch(() => tryHost('0.0.0.0'));
}

function readRegistry(dir: string): RegistryEntry | undefined {
  try {
    const entry = JSON.parse(
      readFileSync(join(dir, REGISTRY_FILE), 'utf8'),
    ) as Partial<RegistryEntry>;
    if (typeof entry.pgid !== 'number' || typeof entry.ownerPid !== 'number') return undefined;
    return entry as RegistryEntry;
  } catch {
    return undefined;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Whether process group `pgid` has a live member. Zombies do not count: a reparented child stays a
 * zombie until the container's init reaps it, which can take seconds.
 */
function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error: unknown) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether process group `pgid` still holds a live Mokapi process: guards the reaper against a
 * recycled process-group id. Without /proc (not Linux) the group's existence has to do.
 */
function isMokapiGroup(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (!members) return groupAlive(pgid);
  return members.some((member) => member.cmdline.includes('mokapi'));
}

/** Live (non-zombie) processes of a process group, from /proc; undefined without /proc. */
export function groupMembers(pgid: number): Array<{ pid: number; cmdline: string }> | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  if (!names.includes('self')) return undefined;
  const members: Array<{ pid: number; cmdline: string }> = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may contain spaces, so split after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid || state === 'Z' || state === 'X') continue;
      members.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8') });
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

/** Waits for `promise`, at most `ms` (without leaving a timer behind to hold the process). */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await delay(20);
  }
  return true;
}
