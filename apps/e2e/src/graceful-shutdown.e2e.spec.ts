import { Agent, request } from 'node:http';
import { rmSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import {
  ADAPTER_TOPICS,
  COMMAND_TOPICS,
  EVENT_TOPICS,
  InboundEvent,
  replyTopicOf,
} from '@consign/contracts';
import {
  AppProcess,
  BOOTSTRAP_MERCHANT_ID,
  GATEWAY_READY,
  MOKAPI_COMMIT_INTERVAL_MS,
  MOKAPI_FETCH_MAX_WAIT_MS,
  MokapiBroker,
  aProduct,
  anEventEnvelope,
  eventually,
  freePort,
  newApiKey,
  startApp,
  startMokapiBroker,
  tempDir,
  TestDatabase,
  createTestDatabase,
} from '@consign/testing';

/** Failures of a request the server never read: refused, or its socket closed before a reply. */
const CONNECTION_ERRORS = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up'];
const CATALOG_GROUP = 'catalog-service-server';

interface Outcome {
  title: string;
  sentAt: number;
  status?: number;
  error?: string;
}

/**
 * Issue 6 item 6. Distributed: SIGTERM under load fails no request, and a service stopped while
 * it handles events commits exactly what it handled. The gateway and catalog-service run as
 * processes over the Kafka-protocol test broker, on a fresh PostgreSQL database.
 */
describe('graceful shutdown (distributed)', () => {
  let database: TestDatabase;
  let databaseUrl: string;
  let broker: MokapiBroker;
  let db: Client;
  const dirs: string[] = [];
  const running: AppProcess[] = [];
  const apiKey = newApiKey();
  let catalog: AppProcess;

  const envFor = (app: string): Record<string, string> => {
    const dir = tempDir(app);
    dirs.push(dir);
    return {
      KAFKA_BROKERS: broker.brokers,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      // Paced commits, as on every Mokapi deployment: the stop must still commit exactly what
      // was handled (the commit in hand is flushed before the consumer leaves).
      BUS_COMMIT_INTERVAL_MS: String(MOKAPI_COMMIT_INTERVAL_MS),
      KAFKA_FETCH_MAX_WAIT_MS: String(MOKAPI_FETCH_MAX_WAIT_MS),
    };
  };

  async function startCatalog(): Promise<AppProcess> {
    const port = await freePort();
    const app = await startApp(
      'catalog-service',
      { ...envFor('catalog-service'), PORT: String(port), HOST: '127.0.0.1' },
      /catalog-service is ready/,
      60_000,
      `http://127.0.0.1:${port}/health/ready`,
    );
    running.push(app);
    return app;
  }

  async function startGateway(
    env: Record<string, string>,
  ): Promise<{ app: AppProcess; port: number }> {
    const port = await freePort();
    const app = await startApp(
      'api-gateway',
      {
        ...envFor('api-gateway'),
        PORT: String(port),
        HOST: '127.0.0.1',
        BOOTSTRAP_API_KEY: apiKey,
        ...env,
      },
      GATEWAY_READY,
      60_000,
      `http://127.0.0.1:${port}/health/ready`,
    );
    running.push(app);
    return { app, port };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    if (!database.url) throw new Error('these scenarios need PostgreSQL (DATABASE_URL)');
    databaseUrl = database.url;
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    broker = await startMokapiBroker({
      topics: [...COMMAND_TOPICS, ...EVENT_TOPICS, ...ADAPTER_TOPICS],
      replyTopics: COMMAND_TOPICS.map(replyTopicOf),
    });
    catalog = await startCatalog();
  });

  afterAll(async () => {
    for (const app of running.splice(0).reverse()) await app.stop();
    await broker?.stop();
    await db?.end();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('the gateway stopped under load answers every request it accepted, fails readiness during the delay, and exits 0', async () => {
    const delayMs = 1500;
    const { app: gateway, port } = await startGateway({ SHUTDOWN_DELAY_MS: String(delayMs) });
    await sigtermUnderLoad(gateway, port, apiKey, delayMs, db);
  });

  it('a service stopped while it handles events commits the offsets of exactly what it handled, and exits 0', async () => {
    // (The last scenario: it stops catalog-service, which the gateway scenario needs.)
    const { app: gateway, port } = await startGateway({});
    const created = await post(new Agent(), port, apiKey, aProduct());
    expect(created.status).toBe(200);
    const productId = (JSON.parse(created.body ?? '{}') as { data: number }).data;
    const variant = await db.query<{ id: string }>(
      'SELECT id FROM catalog.variant WHERE product_id = $1 ORDER BY id LIMIT 1',
      [productId],
    );
    const variantId = Number(variant.rows[0].id);
    expect(await gateway.stop()).toBe(0);

    // Many receipts of one unit each: the stock counts what was handled, the inbox names it.
    const total = 1500;
    const kafka = new Kafka({
      clientId: 'shutdown-test',
      brokers: broker.brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const events = Array.from({ length: total }, (_, i) => ({
      key: `inbound-${i}`,
      value: JSON.stringify(
        anEventEnvelope(BOOTSTRAP_MERCHANT_ID, `inbound-${i}`, {
          inbound_id: i + 1,
          warehouse_code: 'WH-NJ-01',
          lines: [{ sku_number: String(variantId), variant_id: variantId, quantity: 1 }],
        }),
      ),
    }));
    for (let i = 0; i < total; i += 250)
      await producer.send({ topic: InboundEvent.Received, messages: events.slice(i, i + 250) });
    await producer.disconnect();

    const handled = async () =>
      Number(
        (
          await db.query<{ count: string }>(
            `SELECT count(*) FROM catalog.inbox_message WHERE consumer = 'catalog-service'`,
          )
        ).rows[0].count,
      );
    await eventually(handled, (count) => count >= 30, { timeoutMs: 30_000 });
    expect(await catalog.stop('SIGTERM')).toBe(0);
    expect(catalog.output()).toMatch(/bus consumers stopped, offsets committed/);

    const handledBeforeStop = await handled();
    expect(handledBeforeStop).toBeLessThan(total); // stopped mid-stream, not after the last one
    const stock = await db.query<{ on_hand: number }>(
      'SELECT on_hand FROM catalog.stock_level WHERE variant_id = $1',
      [variantId],
    );
    expect(Number(stock.rows[0].on_hand)).toBe(handledBeforeStop);
    // Where a restarted catalog-service resumes: a consumer in its group starts at the committed
    // offset. The test broker has one partition per topic, so the handled events are offsets
    // 0..handled-1 and the first one delivered must be exactly the next (none handled again,
    // none skipped). The stopped member holds the partition until its session times out.
    const resumer = kafka.consumer({ groupId: CATALOG_GROUP, maxWaitTimeInMs: 250 });
    await resumer.connect();
    await resumer.subscribe({ topic: InboundEvent.Received, fromBeginning: true });
    try {
      const resumedAt = await new Promise<number>((resolve) => {
        void resumer.run({
          eachMessage: async ({ message }) => {
            resolve(Number(message.offset));
            resumer.pause([{ topic: InboundEvent.Received }]);
          },
        });
      });
      expect(resumedAt).toBe(handledBeforeStop);
    } finally {
      await resumer.disconnect();
    }
  });
});

describe('graceful shutdown (standalone)', () => {
  let database: TestDatabase;
  let db: Client;
  const dataDir = tempDir('shutdown-standalone');

  beforeAll(async () => {
    database = await createTestDatabase();
    if (!database.url) throw new Error('this scenario needs PostgreSQL (DATABASE_URL)');
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stopped under load, it answers every request it accepted, fails readiness during the delay, and exits 0', async () => {
    const delayMs = 1500;
    const apiKey = newApiKey();
    const port = await freePort();
    const app = await startApp(
      'standalone',
      {
        DATABASE_URL: database.url!,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        BOOTSTRAP_API_KEY: apiKey,
        SHUTDOWN_DELAY_MS: String(delayMs),
      },
      GATEWAY_READY,
      60_000,
      `http://127.0.0.1:${port}/health/ready`,
    );
    try {
      await sigtermUnderLoad(app, port, apiKey, delayMs, db);
    } finally {
      await app.stop();
    }
  });
});

/**
 * Steady load on a running app (six keep-alive clients creating products back to back, and a
 * readiness probe every 100 ms), SIGTERM once it answered some, then what a client must see: every
 * answer a 200 (none during the delay refused), readiness 503 during the delay, exit 0, and every
 * failed request a connection error that left nothing behind (its product does not exist).
 */
async function sigtermUnderLoad(
  app: AppProcess,
  port: number,
  apiKey: string,
  delayMs: number,
  db: Client,
): Promise<void> {
  const outcomes: Outcome[] = [];
  const readiness: { at: number; status: number | string }[] = [];
  let stop = false;

  // Several merchants' programs, each a keep-alive connection issuing requests back to back.
  const clients = Array.from({ length: 6 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (!stop) {
      const product = aProduct();
      const sentAt = Date.now();
      const result = await post(agent, port, apiKey, product);
      outcomes.push({ title: String(product.title), sentAt, ...result });
      if (result.error) await sleep(20);
    }
    agent.destroy();
  });
  const probe = (async () => {
    while (!stop) {
      const result = await get(port, '/health/ready');
      readiness.push({ at: Date.now(), status: result.status ?? result.error ?? 'none' });
      await sleep(100);
    }
  })();

  await eventually(
    async () => outcomes.filter((o) => o.status === 200).length,
    (successes) => successes > 10,
    { timeoutMs: 30_000 },
  );
  const signalledAt = Date.now();
  const code = await app.stop('SIGTERM');
  const exitedAt = Date.now();
  stop = true;
  await Promise.all([...clients, probe]);

  expect(code).toBe(0);
  expect(exitedAt - signalledAt).toBeGreaterThanOrEqual(delayMs);
  expect(app.output()).toMatch(/HTTP closed, every request answered/);

  // No request got anything but a success: no 5xx, no 429, nothing.
  const answered = outcomes.filter((o) => o.status !== undefined);
  expect(answered.filter((o) => o.status !== 200)).toEqual([]);
  // It went on serving during the delay...
  const servedAfterSignal = answered.filter((o) => o.sentAt > signalledAt);
  expect(servedAfterSignal.length).toBeGreaterThan(0);
  // ...while readiness said 503 (and 200 before).
  expect(readiness.filter((r) => r.at < signalledAt).every((r) => r.status === 200)).toBe(true);
  expect(readiness.some((r) => r.at > signalledAt && r.at < exitedAt && r.status === 503)).toBe(
    true,
  );

  // Failures are connection errors of requests the gateway never took: nothing was created.
  const failed = outcomes.filter((o) => o.error !== undefined);
  expect(failed.filter((o) => !CONNECTION_ERRORS.includes(o.error!))).toEqual([]);
  const titlesIn = async (titles: string[]) =>
    (
      await db.query<{ title: string }>('SELECT title FROM catalog.product WHERE title = ANY($1)', [
        titles,
      ])
    ).rows.map((row) => row.title);
  expect(await titlesIn(failed.map((o) => o.title))).toEqual([]);
  expect((await titlesIn(answered.map((o) => o.title))).length).toBe(answered.length);
}

function post(
  agent: Agent,
  port: number,
  apiKey: string,
  body: unknown,
): Promise<{ status?: number; body?: string; error?: string }> {
  const payload = JSON.stringify(body);
  return send(
    {
      agent,
      port,
      method: 'POST',
      path: '/2025-07/cloud/product',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      },
    },
    payload,
  );
}

function get(port: number, path: string): Promise<{ status?: number; error?: string }> {
  return send({ agent: false, port, method: 'GET', path });
}

function send(
  options: {
    agent: Agent | false;
    port: number;
    method: string;
    path: string;
    headers?: Record<string, string | number>;
  },
  payload?: string,
): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', timeout: 30_000, ...options }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
      res.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ error: error.code ?? error.message }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    req.end(payload);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
