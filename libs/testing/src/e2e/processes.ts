import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

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
 * output matches `ready`. Its output is kept for the failure message.
 */
export async function startApp(
  app: string,
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<AppProcess> {
  const script = join(REPO_ROOT, 'dist', 'apps', app, 'src', 'main.js');
  const child = spawn(process.execPath, [script], {
    cwd: REPO_ROOT,
    env: { ...cleanEnv(), ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => resolveExit(code)),
  );
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${app} not ready after ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
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
  return {
    name: app,
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
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
        'PORT',
        'DATA_DIR',
        'RATE_CARDS_DIR',
        'NODE_OPTIONS',
      ].includes(key)
    )
      continue;
    env[key] = value;
  }
  return env;
}
