import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  AppProcess,
  GATEWAY_READY,
  databaseUrl,
  freePort,
  newApiKey,
  startApp,
  tempDir,
  withAdminClient,
} from '@consign/testing';

/** How a benchmark wants its standalone app. */
export interface BenchAppOptions {
  /** On a new, empty PostgreSQL database of its own (TEST_DATABASE_URL's server), else embedded. */
  postgres: boolean;
  /** The prefix of its temporary DATA_DIR (see tempDir). */
  dataDirPrefix: string;
  /** More environment for the app, added after (and so over) the benchmark defaults. */
  env?: Record<string, string>;
}

/** A standalone app a benchmark started. */
export interface BenchApp {
  app: AppProcess;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** Its bootstrap API key (BOOTSTRAP_API_KEY). */
  apiKey: string;
  /** Its PostgreSQL database, or undefined on the embedded one. */
  databaseUrl: string | undefined;
  /** Stops the app, then drops its database (if any) and removes its DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * Starts the standalone app for a benchmark on a free loopback port, with a new bootstrap API key
 * and the rate limit off; when it does not start, drops its database and removes its DATA_DIR.
 */
export function startBenchApp(
  options: BenchAppOptions & { postgres: true },
): Promise<BenchApp & { databaseUrl: string }>;
export function startBenchApp(options: BenchAppOptions): Promise<BenchApp>;
export async function startBenchApp(options: BenchAppOptions): Promise<BenchApp> {
  const name = `consign_bench_${randomBytes(4).toString('hex')}`;
  if (options.postgres) await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = options.postgres ? databaseUrl(name) : undefined;
  const dataDir = tempDir(options.dataDirPrefix);
  const apiKey = newApiKey();
  const port = await freePort();
  const cleanUp = async () => {
    if (options.postgres)
      await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    rmSync(dataDir, { recursive: true, force: true });
  };
  let app: AppProcess;
  try {
    app = await startApp(
      'standalone',
      {
        ...(url !== undefined ? { DATABASE_URL: url } : {}),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        BOOTSTRAP_API_KEY: apiKey,
        RATE_LIMIT_MAX: '0',
        ...options.env,
      },
      GATEWAY_READY,
    );
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    apiKey,
    databaseUrl: url,
    async stop() {
      await app.stop();
      await cleanUp();
    },
  };
}
