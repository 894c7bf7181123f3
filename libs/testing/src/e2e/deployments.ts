import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { AdminApi, BOOTSTRAP_MERCHANT_ID, newAdminKey } from './admin';
import { ApiClient } from './api-client';
import { seedFromEmbeddedTemplate } from './embedded-template';
import { AppProcess, freePort, startApp, tempDir } from './processes';
import { createTestDatabase } from '../database/test-database';

/** A running Consign, however it is deployed, as the HTTP scenarios see it. */
export interface Deployment {
  mode: 'standalone' | 'distributed';
  client: ApiClient;
  apiKey: string;
  /** The deployment's admin key (BOOTSTRAP_ADMIN_KEY) and its admin API. */
  adminKey: string;
  admin: AdminApi;
  /** Adds a merchant through the admin API; returns a client holding its key. */
  createMerchant(name: string): Promise<ApiClient>;
  /** Issues an operator key for the first merchant through the admin API; a client holding it. */
  createOperatorKey(): Promise<ApiClient>;
  /** Issues a carrier credential through the admin API; returns a client holding it. */
  createCarrierKey(carrier: string): Promise<ApiClient>;
  /** The environment the platform's processes run with (database, data folder, keys). */
  env: Record<string, string>;
  /**
   * Starts another gateway process on the deployment's database (distributed only, on
   * PostgreSQL): a client for it, and how to stop it (also stopped with the deployment).
   */
  startGateway?(): Promise<{ client: ApiClient; stop(): Promise<void> }>;
  /** The environment a tool needs to reach this deployment's bus (distributed only). */
  busEnv?: Record<string, string>;
  /** The PostgreSQL database every process uses, when there is one (distributed only). */
  databaseUrl?: string;
  /**
   * Stops one process of a service (its `replica`-th, default the first) with `signal`, waits
   * `downMs`, and starts it again with the same settings (distributed only).
   */
  restartService?(
    name: string,
    signal: 'SIGKILL' | 'SIGTERM',
    options?: { replica?: number; downMs?: number },
  ): Promise<void>;
  /** Starts one more process of a service, in the same consumer group (distributed only). */
  addReplica?(name: string): Promise<void>;
  /** Each process's state: still running, and what its /health/ready answers (distributed only). */
  processHealth?(): Promise<ProcessHealth[]>;
  /** The Kafka-protocol test broker (distributed only), to make outages with. */
  broker?: BrokerControl;
  /** Stops one service process (distributed only), to see how the gateway copes without it. */
  stopService?(name: string): Promise<void>;
  /** Every process's output, for a failing test's message. */
  logs(): string;
  stop(): Promise<void>;
}

/** A Deployment's key methods: each asks its admin API for a key and answers a client holding it. */
export function keysThrough(
  admin: AdminApi,
  client: ApiClient,
): Pick<Deployment, 'createMerchant' | 'createOperatorKey' | 'createCarrierKey'> {
  return {
    async createMerchant(name) {
      return client.withKey((await admin.createMerchant(name)).apiKey);
    },
    async createOperatorKey() {
      return client.withKey((await admin.createKey(BOOTSTRAP_MERCHANT_ID, 'operator')).api_key);
    },
    async createCarrierKey(carrier) {
      return client.withKey(await admin.createCarrierKey(carrier));
    },
  };
}

export interface ProcessHealth {
  name: string;
  /** Its process id (its CPU time is in /proc/<pid>/stat). */
  pid: number | undefined;
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
  /** How the broker process ended, when it ended by itself or was stopped; undefined while up. */
  exitStatus(): string | undefined;
  /** Why the broker died, when its output says (see MokapiBroker.deathCause). */
  deathCause(): string | undefined;
}

export function newApiKey(): string {
  return `csk_test_${randomBytes(18).toString('base64url')}`;
}

export const GATEWAY_READY = /Consign is running at|api-gateway is listening at/;

/**
 * The standalone app as one process: on a fresh copy of the test database when PostgreSQL is
 * reachable (or `embedded` is not asked for), otherwise on the embedded database in a temporary
 * DATA_DIR, a copy of the run's migrated embedded template (embedded-template.ts).
 */
export async function startStandalone(
  options: { embedded?: boolean; env?: Record<string, string> } = {},
): Promise<Deployment> {
  const database = options.embedded ? undefined : await createTestDatabase();
  const dataDir = tempDir('standalone');
  if (!database?.url) await seedFromEmbeddedTemplate(dataDir);
  const apiKey = newApiKey();
  const adminKey = newAdminKey();
  const port = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(database?.url ? { DATABASE_URL: database.url } : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    BOOTSTRAP_API_KEY: apiKey,
    BOOTSTRAP_ADMIN_KEY: adminKey,
    ...options.env,
  };
  const readyUrl = `http://127.0.0.1:${port}/health/ready`;
  const app: AppProcess = await startApp('standalone', env, GATEWAY_READY, 60_000, readyUrl).catch(
    async (error: unknown) => {
      await database?.drop();
      throw error;
    },
  );
  const client = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
  // Administration goes through the running platform's admin API: it is never stopped for it.
  const admin = new AdminApi(client.withKey(adminKey));
  return {
    mode: 'standalone',
    client,
    apiKey,
    adminKey,
    admin,
    env,
    logs: () => app.output(),
    ...keysThrough(admin, client),
    async stop() {
      await app.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
