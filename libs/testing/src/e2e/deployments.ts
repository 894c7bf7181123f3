import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createTestDatabase } from '@consign/platform';
import {
  BOOTSTRAP_MERCHANT_ID,
  createCarrierKeyWithCli,
  createKeyWithCli,
  createMerchantWithCli,
} from './admin';
import { ApiClient } from './api-client';
import { AppProcess, freePort, startApp, tempDir } from './processes';

/** A running Consign, however it is deployed, as the HTTP scenarios see it. */
export interface Deployment {
  mode: 'standalone' | 'distributed';
  client: ApiClient;
  apiKey: string;
  /** Adds a merchant with the admin CLI; returns a client holding its key. */
  createMerchant(name: string): Promise<ApiClient>;
  /** Issues an operator key for the first merchant with the admin CLI; a client holding it. */
  createOperatorKey(): Promise<ApiClient>;
  /** Issues a carrier credential with the admin CLI; returns a client holding it. */
  createCarrierKey(carrier: string): Promise<ApiClient>;
  /** The environment a tool needs to reach this deployment's bus (distributed only). */
  busEnv?: Record<string, string>;
  /** Each process's state: still running, and what its /health/ready answers (distributed only). */
  processHealth?(): Promise<ProcessHealth[]>;
  /** The Kafka-protocol test broker (distributed only), to make outages with. */
  broker?: BrokerControl;
  /** Stops one service process (distributed only), to see how the gateway copes without it. */
  stopService?(name: string): Promise<void>;
  /**
   * Stops one service process with `signal` (SIGKILL: no chance to clean up) and starts it again
   * on the same database and bus (distributed only).
   */
  restartService?(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Every process's output, for a failing test's message. */
  logs(): string;
  stop(): Promise<void>;
}

export interface ProcessHealth {
  name: string;
  /** Exit code or signal once the process ended; null while it runs. */
  exited: number | string | null;
  /** Status of its /health/ready (0 when it did not answer) and the body's reason. */
  ready: number;
  body: string;
}

/** Outages of a distributed deployment's broker. */
export interface BrokerControl {
  /** Stops the broker: clients' connections are refused until `start`. Its data is lost. */
  stop(): Promise<void>;
  /** Starts a new, empty broker on the same address with the same topics. */
  start(): Promise<void>;
  /** Freezes the broker (connections stay open, nothing answers) until `thaw`. */
  freeze(): void;
  thaw(): void;
}

export function newApiKey(): string {
  return `csk_test_${randomBytes(18).toString('base64url')}`;
}

export const GATEWAY_READY = /Consign is running at|api-gateway is listening at/;

/**
 * The standalone app as one process: on a fresh copy of the test database when PostgreSQL is
 * reachable (or `embedded` is not asked for), otherwise on the embedded database in a temporary
 * DATA_DIR.
 */
export async function startStandalone(
  options: { embedded?: boolean; env?: Record<string, string> } = {},
): Promise<Deployment> {
  const database = options.embedded ? undefined : await createTestDatabase();
  const dataDir = tempDir('standalone');
  const apiKey = newApiKey();
  const port = await freePort();
  const dbEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(database?.url ? { DATABASE_URL: database.url } : {}),
  };
  const env: Record<string, string> = {
    ...dbEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    BOOTSTRAP_API_KEY: apiKey,
    ...options.env,
  };
  const readyUrl = `http://127.0.0.1:${port}/health/ready`;
  let app: AppProcess = await startApp('standalone', env, GATEWAY_READY, 60_000, readyUrl).catch(
    async (error: unknown) => {
      await database?.drop();
      throw error;
    },
  );
  const client = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
  let logs = '';
  /** Runs the admin CLI; one process owns an embedded database, so the app stops meanwhile. */
  const withDatabase = async <T>(admin: () => Promise<T>): Promise<T> => {
    if (database?.url) return admin();
    logs += app.output();
    await app.stop();
    const result = await admin();
    app = await startApp('standalone', env, GATEWAY_READY, 60_000, readyUrl);
    return result;
  };
  return {
    mode: 'standalone',
    client,
    apiKey,
    logs: () => logs + app.output(),
    async createMerchant(name) {
      const merchant = await withDatabase(() => createMerchantWithCli(dbEnv, name));
      return client.withKey(merchant.apiKey);
    },
    async createOperatorKey() {
      const key = await withDatabase(() =>
        createKeyWithCli(dbEnv, BOOTSTRAP_MERCHANT_ID, 'operator'),
      );
      return client.withKey(key);
    },
    async createCarrierKey(carrier) {
      return client.withKey(await withDatabase(() => createCarrierKeyWithCli(dbEnv, carrier)));
    },
    async stop() {
      await app.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
