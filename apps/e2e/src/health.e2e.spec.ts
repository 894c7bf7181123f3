import { rmSync } from 'node:fs';
import { Client } from 'pg';
import {
  AppProcess,
  conformingFetch,
  GATEWAY_READY,
  consignMokapiTopics,
  MOKAPI_COMMIT_INTERVAL_MS,
  MOKAPI_FETCH_MAX_WAIT_MS,
  MokapiBroker,
  eventually,
  freePort,
  newApiKey,
  startApp,
  startMokapiBroker,
  tempDir,
  TestDatabase,
  createTestDatabase,
} from '@consign/testing';

interface Health {
  status: string;
  info: Record<string, { status: string } & Record<string, unknown>>;
  error: Record<string, { status: string } & Record<string, unknown>>;
  details: Record<string, { status: string } & Record<string, unknown>>;
}

async function health(
  port: number,
  probe: 'live' | 'ready',
): Promise<{ status: number; body: Health }> {
  const response = await fetch(`http://127.0.0.1:${port}/health/${probe}`);
  return { status: response.status, body: (await response.json()) as Health };
}

/** The probes of issue 6 item 5, as Kubernetes (or compose) calls them: no key, no envelope. */
describe('health endpoints (standalone)', () => {
  let database: TestDatabase;
  let databaseName: string;
  let admin: Client;
  let app: AppProcess;
  let port: number;
  const dataDir = tempDir('health');

  const allowConnections = (allow: boolean) =>
    admin.query(`ALTER DATABASE "${databaseName}" WITH ALLOW_CONNECTIONS ${allow}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    if (!database.url) throw new Error('this scenario needs PostgreSQL (DATABASE_URL)');
    const url = new URL(database.url);
    databaseName = url.pathname.slice(1);
    url.pathname = '/postgres';
    admin = new Client({ connectionString: url.toString() });
    await admin.connect();
    port = await freePort();
    app = await startApp(
      'standalone',
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        BOOTSTRAP_API_KEY: newApiKey(),
        RATE_LIMIT_MAX: '3',
      },
      GATEWAY_READY,
      60_000,
      `http://127.0.0.1:${port}/health/ready`,
    );
  });

  afterAll(async () => {
    await allowConnections(true).catch(() => undefined);
    await app?.stop();
    await admin?.end();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers liveness and readiness in terminus JSON, with no key, no envelope and no rate limit', async () => {
    for (let i = 0; i < 8; i++) {
      const live = await health(port, 'live');
      expect(live).toEqual({
        status: 200,
        body: { status: 'ok', info: {}, error: {}, details: {} },
      });
    }
    const ready = await health(port, 'ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.details).toMatchObject({
      shutdown: { status: 'up' },
      database: { status: 'up', kind: 'postgres' },
      broker: { status: 'up', transport: 'in-process' },
    });
    // The API itself still wants a key, in the envelope.
    const api = await conformingFetch()(`http://127.0.0.1:${port}/2025-07/cloud/product/all`);
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ code: 401, data: null });
  });

  it('fails readiness, not liveness, while the database refuses connections, and recovers', async () => {
    await allowConnections(false);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [databaseName],
    );
    const unready = await eventually(
      () => health(port, 'ready'),
      (answer) => answer.status === 503,
      { timeoutMs: 15_000 },
    );
    expect(unready.body.status).toBe('error');
    expect(Object.keys(unready.body.error)).toEqual(['database']);
    expect((await health(port, 'live')).status).toBe(200);

    await allowConnections(true);
    await eventually(
      () => health(port, 'ready'),
      (answer) => answer.status === 200,
      { timeoutMs: 15_000 },
    );
  });
});

describe('health endpoints (a service process, distributed)', () => {
  let database: TestDatabase;
  let broker: MokapiBroker;
  let service: AppProcess;
  let port: number;
  const dataDir = tempDir('health-service');

  /** A service process on the test broker and the database, with its own data folder. */
  const onTheBroker = (dir: string): Record<string, string> => ({
    KAFKA_BROKERS: broker.brokers,
    // Mokapi dies of its own race on busy offset commits (mokapi-broker.ts).
    BUS_COMMIT_INTERVAL_MS: String(MOKAPI_COMMIT_INTERVAL_MS),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    DATA_DIR: dir,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    broker = await startMokapiBroker(consignMokapiTopics());
    port = await freePort();
    service = await startApp(
      'rating-service',
      {
        ...onTheBroker(dataDir),
        KAFKA_FETCH_MAX_WAIT_MS: String(MOKAPI_FETCH_MAX_WAIT_MS),
        PORT: String(port),
        HOST: '127.0.0.1',
        // The broker is gone when it stops: do not wait long for the consumer to leave.
        SHUTDOWN_CLOSE_TIMEOUT_MS: '2000',
      },
      /rating-service is ready/,
      60_000,
      `http://127.0.0.1:${port}/health/ready`,
    );
  });

  afterAll(async () => {
    await service?.stop();
    await broker?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says it is ready only once readiness holds, its request client included', async () => {
    // catalog-service also asks order-service (order states): its client has a reply consumer of
    // its own, which joins its group after the server's consumer may have.
    const catalogPort = await freePort();
    const catalogDir = tempDir('health-catalog');
    const catalog = await startApp(
      'catalog-service',
      {
        // No KAFKA_FETCH_MAX_WAIT_MS: on the product's fetch wait, the reply consumer's first
        // fetch, which its connection waits for, ends a while after the server's consumer joined.
        ...onTheBroker(catalogDir),
        PORT: String(catalogPort),
        HOST: '127.0.0.1',
      },
      // The line alone: no waiting on /health/ready before asking it.
      /catalog-service is ready/,
    );
    try {
      const ready = await health(catalogPort, 'ready');
      expect(ready.body.error).toEqual({});
      expect(ready.status).toBe(200);
    } finally {
      await catalog.stop();
      rmSync(catalogDir, { recursive: true, force: true });
    }
  });

  it('is stopped by the harness when it is not ready in time, not left running', async () => {
    // startApp gives no handle to an app that is not ready: it must end it itself, or the app
    // holds its port, connections and data folder past the test (seen: a walk's leftovers).
    const dir = tempDir('health-not-ready');
    try {
      const failure = await startApp(
        'rating-service',
        onTheBroker(dir),
        /a line no app prints/,
        3_000,
      ).then(
        () => new Error('rating-service was ready'),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(/^rating-service \(pid \d+\) not ready after 3000 ms/);
      const pid = Number(/\(pid (\d+)\)/.exec(failure.message)![1]);
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/); // no such process
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is ready with its consumer in its group, and unready, still live, once the broker is gone', async () => {
    const ready = await health(port, 'ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.broker).toMatchObject({ status: 'up', transport: 'kafka' });
    expect(ready.body.details.broker.consumers).toBeGreaterThanOrEqual(1);
    // A service process serves its Prometheus metrics beside the probes (issue 6 item 7).
    const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await scrape.text()).toMatch(/^process_resident_memory_bytes \d+/m);

    await broker.stop();
    const unready = await eventually(
      () => health(port, 'ready'),
      (answer) => answer.status === 503,
      { timeoutMs: 15_000 },
    );
    expect(Object.keys(unready.body.error)).toContain('broker');
    expect((await health(port, 'live')).status).toBe(200);
  });
});
