import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runningApps } from './running-apps';

/** The repository root: the nearest folder above this file with a package.json (source or dist/). */
export const REPO_ROOT = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export function freePort(): Promise<number> {
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

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `consign-${prefix}-`));
}

export interface AppProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Sends a signal and waits for the exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a built app (`dist/apps/<app>/src/main.js`) as a child process and waits until its
 * output matches `ready` and, when `readyUrl` is given, until that URL (the app's
 * `/health/ready`) answers 200. Its output is kept for the failure message. Apps stop at once on
 * SIGTERM (SHUTDOWN_DELAY_MS 0) unless `env` says otherwise, and listen on a free loopback port
 * unless `env` has a PORT.
 */
export async function startApp(
  app: string,
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
  readyUrl?: string,
): Promise<AppProcess> {
  const script = join(REPO_ROOT, 'dist', 'apps', app, 'src', 'main.js');
  const deadline = Date.now() + timeoutMs;
  // Every app listens (health endpoints at least): never on a default port two apps would share.
  const listen = env.PORT ? {} : { PORT: String(await freePort()), HOST: '127.0.0.1' };
  const child = spawn(process.execPath, [script], {
    cwd: REPO_ROOT,
    env: {
      ...cleanEnv(),
      SHUTDOWN_DELAY_MS: '0',
      ...listen,
      ...env,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopping = false;
  // Its warnings and errors are printed under a test that fails while it runs (running-apps.ts).
  const registered = { name: app, pid: child.pid, output: () => output };
  runningApps().add(registered);
  // Every line, in a file per process (CONSIGN_APP_LOG_DIR), as CONSIGN_MOKAPI_LOG_DIR keeps the
  // broker's: to read what each process did around a failure, past the end of the test.
  const logDir = process.env['CONSIGN_APP_LOG_DIR'];
  const logFile = logDir ? join(logDir, `${app}-${child.pid}-${Date.now()}.log`) : undefined;
  if (logDir) mkdirSync(logDir, { recursive: true });
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code, signal) => {
      // Stopped by the test: nothing more to report. An app that ends by itself (not stopped,
      // not killed by a test) says why, at once, since the test that then meets a refused
      // connection shows only that; it stays registered, so a failure after it still shows
      // what it logged before the end.
      if (stopping) runningApps().delete(registered);
      else
        process.stderr.write(
          `\n${app} (pid ${child.pid}) ended by itself (exit code ${code}, signal ${signal}); its last output:\n${output.split('\n').slice(-40).join('\n')}\n`,
        );
      resolveExit(code);
    }),
  );
  try {
    await untilReadyLine();
    if (readyUrl) {
      const status = await untilReady(readyUrl, deadline, () => child.exitCode !== null);
      if (status !== 200)
        throw new Error(
          `${app} (pid ${child.pid}): ${readyUrl} answered ${status} for ${timeoutMs} ms (or the app exited):\n${output}`,
        );
    }
  } catch (error) {
    // Not ready: the caller gets no handle to stop it with, so it is stopped here (it would
    // otherwise hold its port, its database connections and its data folder past the test).
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    throw error;
  }
  return {
    name: app,
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      stopping = true;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };

  /** Resolves once the output matches `ready`; rejects at the deadline or when the app exits. */
  function untilReadyLine(): Promise<void> {
    return new Promise<void>((resolveReady, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`${app} (pid ${child.pid}) not ready after ${timeoutMs} ms:\n${output}`),
          ),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (logFile) appendFileSync(logFile, chunk);
        if (ready.test(output)) {
          clearTimeout(timer);
          resolveReady();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${app} exited with ${code} before it was ready:\n${output}`));
      });
    });
  }
}

/** Polls a readiness URL until it answers 200, the deadline passes or the app exits. */
async function untilReady(
  url: string,
  deadline: number,
  exited: () => boolean,
): Promise<number | string> {
  let last: number | string = 'no answer';
  while (Date.now() < deadline && !exited()) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return 200;
      last = response.status;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

/** The test process's environment without anything that would change an app's mode. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      [
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'BOOTSTRAP_API_KEY',
        'BOOTSTRAP_ADMIN_KEY',
        'PORT',
        'DATA_DIR',
        'RATE_CARDS_DIR',
        'NODE_OPTIONS',
        'SHUTDOWN_DELAY_MS',
      ].includes(key)
    )
      continue;
    env[key] = value;
  }
  return env;
}
