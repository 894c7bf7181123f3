/**
 * Carrier checkpoint throughput: `npm run bench:checkpoints` (see docs/benchmarks.md).
 *
 * 100,000 carrier events for 10,000 labels (10 each: a DHL lifecycle with its allocation first),
 * timed from the first event sent until every one is persisted and readable, through each path a
 * carrier event takes; and, in the same run, the database's own bulk-insert rate into the same
 * table, as the ceiling:
 *
 * - bulk:     INSERT … ON CONFLICT DO NOTHING into labels.checkpoint, one connection (the
 *             database alone; no Consign code), three ways: 500-row VALUES, 2000-row unnest
 *             arrays, 2000-row json_to_recordset. The fastest is the ceiling.
 * - ingestor: label-tracking's CheckpointIngestor called in-process, 1000-event chunks from 4
 *             concurrent callers (the write path without a transport).
 * - webhook:  the standalone app (CARRIER_SANDBOX=off) on PostgreSQL; POST
 *             /2026-05/cloud/carrier/DHL/events, 500 events per request, 8 requests at a time;
 *             each answered after its events were persisted.
 * - kafka:    distributed: the Kafka-protocol test broker (Mokapi, docs/asyncapi.yaml topics), the gateway and
 *             label-tracking-service as processes; events produced with kafkajs (keyed by label,
 *             1000 per send) while the service consumes them in batches. Mokapi's produce rate
 *             bounds this one, so
 * - backlog:  the same with the events produced first and the service started after: its
 *             consumer draining the topic.
 * - broker:   Mokapi alone: the same messages produced, then consumed by a consumer that does
 *             nothing, for what the Kafka paths can reach on this machine.
 *
 * The clock stops when the database holds all 100,000 checkpoints (committed, so readable by every
 * reader); then 100 labels chosen at random are read back through the API, each with all its
 * checkpoints and status delivered (the benchmark fails otherwise). The 10,000 labels are written
 * directly into the database beforehand (setup, not measured).
 *
 * Environment: BENCH_LABELS (10000), BENCH_EVENTS_PER_LABEL (10), BENCH_MODES
 * (bulk,ingestor,webhook,kafka,backlog,broker), BENCH_PG_ADMIN_URL (TEST_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/postgres), BENCH_SERVICE_NODE_OPTIONS (NODE_OPTIONS for the
 * label-tracking-service process of the kafka and backlog paths; Node 20 refuses `--cpu-prof`
 * there, so for a CPU profile: `--require ./dist/libs/testing/src/kafka/cpu-profile.preload.js`
 * and CPU_PROFILE_DIR=/tmp/prof (written when the service stops)).
 * PostgreSQL is required.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { CarrierCheckpointEvent, CarrierTopic } from '@consign/contracts';
import {
  CheckpointIngestor,
  CheckpointNormaliser,
  LabelTrackingConfig,
  ShipmentRepository,
  TrackingRepository,
  labelTrackingDatabase,
} from '@consign/label-tracking';
import { DatabaseHost } from '@consign/database';
import { InProcessBroker, InProcessClient, kafkaJsConfig } from '@consign/bus';
import { Outbox } from '@consign/messaging';
import {
  ApiClient,
  AppProcess,
  GATEWAY_READY,
  aLabel,
  createCarrierKeyWithCli,
  freePort,
  startApp,
  consignMokapiTopics,
  startMokapiBroker,
  tempDir,
} from '@consign/testing';

const LABELS = Number(process.env.BENCH_LABELS ?? 10_000);
const EVENTS_PER_LABEL = Math.min(10, Number(process.env.BENCH_EVENTS_PER_LABEL ?? 10));
const TOTAL = LABELS * EVENTS_PER_LABEL;
const MODES = (process.env.BENCH_MODES ?? 'bulk,ingestor,webhook,kafka,backlog,broker').split(',');
const PG_ADMIN_URL =
  process.env.BENCH_PG_ADMIN_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLE = 100;
const SERVICE_NODE_OPTIONS = process.env.BENCH_SERVICE_NODE_OPTIONS;

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// The events

/** A DHL lifecycle: the allocation first, delivery last (codes from the DHL table). */
const LIFECYCLE: [string, string, string][] = [
  ['SD', 'Shipment information received', ''],
  ['PU', 'Shipment picked up', 'London - UK'],
  ['PL', 'Processed at London - UK', 'London - UK'],
  ['DF', 'Departed Facility in London - UK', 'London - UK'],
  ['AF', 'Arrived at Sort Facility Leipzig - Germany', 'Leipzig - Germany'],
  ['PL', 'Processed at Leipzig - Germany', 'Leipzig - Germany'],
  ['DF', 'Departed Facility in Leipzig - Germany', 'Leipzig - Germany'],
  ['AR', 'Arrived at Delivery Facility in Berlin - Germany', 'Berlin - Germany'],
  ['WC', 'With delivery courier', 'Berlin - Germany'],
  ['OK', 'Delivered', 'Berlin - Germany'],
];
/** After the labels' own first checkpoint (created now), so the carrier's are the latest. */
const BASE = Date.now() + 3_600_000;

function eventOf(labelId: number, step: number): CarrierCheckpointEvent {
  const [code, text, location] = LIFECYCLE[step === EVENTS_PER_LABEL - 1 ? 9 : step];
  const time = new Date(BASE + labelId * 1000 + step * 3_600_000);
  return {
    carrier_code: 'DHL',
    label_id: labelId,
    event_code: code,
    description: text,
    location: location || null,
    event_time: time.toISOString().replace('Z', '+00:00'),
    ...(step === 0
      ? { allocation: { tracking_courier: 'DHL', tracking_number: `JD${1e9 + labelId}` } }
      : {}),
  };
}

/** Every event, step by step across all labels (each label's events in order). */
function allEvents(labelIds: number[]): CarrierCheckpointEvent[] {
  const events: CarrierCheckpointEvent[] = [];
  for (let step = 0; step < EVENTS_PER_LABEL; step++)
    for (const id of labelIds) events.push(eventOf(id, step));
  return events;
}

// ---------------------------------------------------------------------------------------------
// Databases

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `consign_bench_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * A PostgreSQL checkpoint before a path's clock starts, so that each path starts with the WAL of
 * the ones before it (and of its own setup) written out, rather than paying for their checkpoint.
 */
async function settle(): Promise<void> {
  await withAdmin((c) => c.query('CHECKPOINT'));
}

async function checkpointCount(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM labels.checkpoint WHERE carrier_code = 'DHL'`,
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * `LABELS` labels of merchant 1, each with its information_received checkpoint, written directly
 * (setup, not measured: the label API is not what this benchmark is about). The schema must exist.
 */
async function insertLabels(url: string): Promise<number[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `WITH tracking AS (
         INSERT INTO labels.tracking (merchant_id, status, status_at, last_event_at)
         SELECT 1, 'information_received', now(), now() FROM generate_series(1, $1) RETURNING id),
       label AS (
         INSERT INTO labels.label (id, merchant_id, reference, service_code, currency, weight_unit,
           shipping_address, shipper_address, items)
         SELECT id, 1, 'BENCH-' || id, 'DHL-EXPRESS', 'EUR', 'kg', $2::json, $3::json, $4::json
           FROM tracking)
       INSERT INTO labels.checkpoint (tracking_id, event_time, status, carrier_code, event_code, description)
       SELECT id, now(), 'information_received', 'CONSIGN', 'LABEL_CREATED', 'Label created' FROM tracking
       RETURNING tracking_id AS id`,
      [
        LABELS,
        JSON.stringify(aLabel().shipping_address),
        JSON.stringify(aLabel().shipper_address),
        JSON.stringify(aLabel().items),
      ],
    );
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  } finally {
    await client.end();
  }
}

/** The labels schema, migrated, with `LABELS` labels. */
async function labelsSchemaWithLabels(url: string): Promise<number[]> {
  const host = new DatabaseHost({ kind: 'postgres', url, poolSize: 2 });
  await host.openServiceDataSource(labelTrackingDatabase.options);
  await host.close();
  return insertLabels(url);
}

// ---------------------------------------------------------------------------------------------
// Results

interface Result {
  path: string;
  seconds: number;
  rate: number;
  note: string;
}

const results: Result[] = [];

function record(path: string, started: number, note = ''): Result {
  const seconds = (performance.now() - started) / 1000;
  const result = { path, seconds, rate: TOTAL / seconds, note };
  results.push(result);
  log(
    `  ${path}: ${TOTAL} events in ${seconds.toFixed(2)} s = ${result.rate.toFixed(0)} events/s ${note}`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Paths

/** One way of inserting a chunk of events as checkpoints, in one statement. */
interface BulkMethod {
  path: string;
  chunk: number;
  insert(client: Client, chunk: CarrierCheckpointEvent[]): Promise<unknown>;
}

const CHECKPOINT_COLUMNS =
  'tracking_id, event_time, status, carrier_code, event_code, description, details';

/**
 * The database's own bulk-insert methods into labels.checkpoint, no Consign code: multi-row
 * VALUES with one parameter per value, and one parameter per column (arrays, unnest) or per chunk
 * (JSON, json_to_recordset: what the ingestor uses). The fastest is the ceiling.
 */
const BULK_METHODS: BulkMethod[] = [
  {
    path: 'PostgreSQL bulk insert (500-row INSERT … VALUES)',
    chunk: 500,
    insert(client, chunk) {
      const values: unknown[] = [];
      const rows = chunk.map((e, j) => {
        values.push(
          e.label_id,
          e.event_time,
          'in_transit',
          'DHL',
          e.event_code,
          e.description,
          e.location,
        );
        const p = j * 7;
        return `($${p + 1},$${p + 2},$${p + 3},$${p + 4},$${p + 5},$${p + 6},$${p + 7})`;
      });
      return client.query(
        `INSERT INTO labels.checkpoint (${CHECKPOINT_COLUMNS}) VALUES ${rows.join(',')} ON CONFLICT DO NOTHING`,
        values,
      );
    },
  },
  {
    path: 'PostgreSQL bulk insert (2000-row unnest arrays)',
    chunk: 2000,
    insert(client, chunk) {
      return client.query(
        `INSERT INTO labels.checkpoint (${CHECKPOINT_COLUMNS})
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         ON CONFLICT DO NOTHING`,
        [
          chunk.map((e) => e.label_id),
          chunk.map((e) => e.event_time),
          chunk.map(() => 'in_transit'),
          chunk.map(() => 'DHL'),
          chunk.map((e) => e.event_code),
          chunk.map((e) => e.description),
          chunk.map((e) => e.location),
        ],
      );
    },
  },
  {
    path: 'PostgreSQL bulk insert (2000-row json_to_recordset)',
    chunk: 2000,
    insert(client, chunk) {
      return client.query(
        `INSERT INTO labels.checkpoint (${CHECKPOINT_COLUMNS})
         SELECT * FROM json_to_recordset($1::json) AS c(tracking_id bigint, event_time timestamptz,
           status text, carrier_code text, event_code text, description text, details text)
         ON CONFLICT DO NOTHING`,
        [
          JSON.stringify(
            chunk.map((e) => ({
              tracking_id: e.label_id,
              event_time: e.event_time,
              status: 'in_transit',
              carrier_code: 'DHL',
              event_code: e.event_code,
              description: e.description,
              details: e.location,
            })),
          ),
        ],
      );
    },
  },
];

/** The database alone: each bulk method into the same table, one connection, fresh database. */
async function benchBulkInsert(): Promise<void> {
  for (const method of BULK_METHODS) {
    log(`bulk: ${method.path.replace('PostgreSQL bulk insert ', '')}, ON CONFLICT DO NOTHING`);
    const database = await freshDatabase();
    try {
      const ids = await labelsSchemaWithLabels(database.url);
      const events = allEvents(ids);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        await settle();
        const started = performance.now();
        for (let i = 0; i < events.length; i += method.chunk)
          await method.insert(client, events.slice(i, i + method.chunk));
        record(method.path, started);
      } finally {
        await client.end();
      }
      if ((await checkpointCount(database.url)) !== TOTAL) throw new Error('bulk: rows missing');
    } finally {
      await database.drop();
    }
  }
}

/** label-tracking's ingestor called in-process: the write path without a transport. */
async function benchIngestor(): Promise<void> {
  log('ingestor: CheckpointIngestor in-process, 1000-event chunks, 4 callers');
  const database = await freshDatabase();
  const host = new DatabaseHost({ kind: 'postgres', url: database.url, poolSize: 10 });
  try {
    const ids = await labelsSchemaWithLabels(database.url);
    const dataSource = await host.openServiceDataSource(labelTrackingDatabase.options);
    const ingestor = new CheckpointIngestor(
      dataSource,
      new Outbox(dataSource, new InProcessClient(new InProcessBroker()), 'labels'),
      new CheckpointNormaliser(),
      new LabelTrackingConfig(),
      new TrackingRepository(),
      new ShipmentRepository(),
    );
    const events = allEvents(ids);
    const chunks: CarrierCheckpointEvent[][] = [];
    for (let i = 0; i < events.length; i += 1000) chunks.push(events.slice(i, i + 1000));
    await settle();
    const started = performance.now();
    await Promise.all(
      [0, 1, 2, 3].map(async (caller) => {
        for (let i = caller; i < chunks.length; i += 4) await ingestor.ingest(chunks[i]);
      }),
    );
    record('label-tracking ingestor, in-process', started);
    if ((await checkpointCount(database.url)) !== TOTAL) throw new Error('ingestor: rows missing');
  } finally {
    await host.close();
    await database.drop();
  }
}

/** Polls the database until every event is a checkpoint (committed: visible to every reader). */
async function waitUntilPersisted(url: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  while ((await checkpointCount(url)) < TOTAL) {
    if (Date.now() > deadline) throw new Error('checkpoints not persisted in 10 minutes');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** 100 labels chosen at random read back through the API, complete, 10 reads at a time. */
async function readBack(api: ApiClient, ids: number[]): Promise<string> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = 0; i < SAMPLE / 10; i++) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        const read = await api.get<{ checkpoints: { status: string }[] }>(
          `/2026-05/cloud/label/tracking/${id}`,
        );
        const checkpoints = read.body.data?.checkpoints ?? [];
        if (checkpoints.length !== EVENTS_PER_LABEL + 1)
          throw new Error(`label ${id}: ${checkpoints.length} checkpoints`);
        if (EVENTS_PER_LABEL === 10 && checkpoints[0].status !== 'delivered')
          throw new Error(`label ${id}: latest is ${checkpoints[0].status}`);
      }
    }),
  );
  return `(then ${SAMPLE} labels read back complete through the API in ${((performance.now() - started) / 1000).toFixed(2)} s)`;
}

/** The standalone app on PostgreSQL; events through the carrier webhook. */
async function benchWebhook(): Promise<void> {
  log('webhook: standalone on PostgreSQL, 500 events per request, 8 requests at a time');
  const database = await freshDatabase();
  const dataDir = tempDir('bench-webhook');
  const port = await freePort();
  const apiKey = `csk_bench_${randomBytes(12).toString('hex')}`;
  let app: AppProcess | undefined;
  try {
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_API_KEY: apiKey,
      RATE_LIMIT_MAX: '0',
      CARRIER_SANDBOX: 'off',
      LOG_LEVEL: 'warn',
    };
    app = await startApp('standalone', { ...env, LOG_LEVEL: 'log' }, GATEWAY_READY, 120_000);
    const api = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
    const ids = await insertLabels(database.url);
    const carrier = api.withKey(
      await createCarrierKeyWithCli({ DATABASE_URL: database.url }, 'DHL'),
    );
    const bodies: string[] = [];
    const events = allEvents(ids).map(({ carrier_code: _carrier, ...event }) => event);
    for (let i = 0; i < events.length; i += 500)
      bodies.push(JSON.stringify({ events: events.slice(i, i + 500) }));
    let next = 0;
    await settle();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          const response = await carrier.request('POST', '/2026-05/cloud/carrier/DHL/events', body);
          if (response.status !== 200)
            throw new Error(`webhook: ${response.status} ${response.body.message}`);
        }
      }),
    );
    await waitUntilPersisted(database.url);
    record('carrier webhook → standalone (PostgreSQL)', started);
    log(`  ${await readBack(api, ids)}`);
  } finally {
    await app?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The partitions of carrier.checkpoint.v1 as docs/asyncapi.yaml declares them. */
function checkpointPartitions(): number {
  return (
    consignMokapiTopics().topics.find((t) => t.name === CarrierTopic.Checkpoint)?.partitions ?? 1
  );
}

/**
 * Distributed: Kafka (Mokapi) → label-tracking-service, consumed in batches. `live`: the service
 * runs while the events are produced (the clock starts at the first send, so the broker's own
 * produce rate bounds it); `backlog`: the events wait on the topic and the clock starts when the
 * service is ready (its consumer drains them).
 */
async function benchKafka(kind: 'live' | 'backlog'): Promise<void> {
  log(
    `kafka (${kind}): Mokapi, ${checkpointPartitions()} partitions (docs/asyncapi.yaml) → label-tracking-service; produced 1000 messages per send`,
  );
  const database = await freshDatabase();
  const broker = await startMokapiBroker(consignMokapiTopics());
  const dirs: string[] = [];
  const processes: AppProcess[] = [];
  const envFor = (name: string) => {
    const dir = tempDir(`bench-${name}`);
    dirs.push(dir);
    return { DATABASE_URL: database.url, KAFKA_BROKERS: broker.brokers, DATA_DIR: dir };
  };
  const startService = async () =>
    processes.push(
      await startApp(
        'label-tracking-service',
        {
          ...envFor('label-tracking-service'),
          ...(SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: SERVICE_NODE_OPTIONS } : {}),
        },
        /label-tracking-service is ready/,
        120_000,
      ),
    );
  try {
    const port = await freePort();
    const apiKey = `csk_bench_${randomBytes(12).toString('hex')}`;
    processes.push(
      await startApp(
        'api-gateway',
        {
          ...envFor('api-gateway'),
          PORT: String(port),
          HOST: '127.0.0.1',
          BOOTSTRAP_API_KEY: apiKey,
          RATE_LIMIT_MAX: '0',
        },
        GATEWAY_READY,
        120_000,
      ),
    );
    const api = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
    const host = new DatabaseHost({ kind: 'postgres', url: database.url, poolSize: 2 });
    await host.openServiceDataSource(labelTrackingDatabase.options);
    await host.close();
    const ids = await insertLabels(database.url);
    if (kind === 'live') await startService();

    const settings = kafkaJsConfig({
      clientId: 'bench',
      groupId: 'bench',
      brokers: [broker.brokers],
    });
    const kafka = new Kafka({ ...settings.client, logLevel: logLevel.ERROR });
    const producer = kafka.producer(settings.producer);
    await producer.connect();
    const messages = allEvents(ids).map((event) => ({
      key: String(event.label_id),
      value: JSON.stringify(event),
    }));
    await settle();
    let started = performance.now();
    for (let i = 0; i < messages.length; i += 1000)
      await producer.send({
        topic: CarrierTopic.Checkpoint,
        messages: messages.slice(i, i + 1000),
      });
    const produced = (performance.now() - started) / 1000;
    await producer.disconnect();
    if (kind === 'backlog') {
      await startService();
      started = performance.now();
    }
    await waitUntilPersisted(database.url);
    record(
      kind === 'live'
        ? 'Kafka (Mokapi) → label-tracking-service, live'
        : 'Kafka (Mokapi) → label-tracking-service, backlog',
      started,
      `(producing took ${produced.toFixed(2)} s = ${(TOTAL / produced).toFixed(0)} events/s)`,
    );
    log(`  ${await readBack(api, ids)}`);
  } finally {
    for (const p of processes.reverse()) await p.stop();
    await broker.stop();
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The test broker alone: the same messages produced to Mokapi, then consumed by a kafkajs
 * consumer that does nothing with them (eachBatch, 4 partitions): what Kafka paths can reach here.
 */
async function benchBroker(): Promise<void> {
  log(
    `broker: Mokapi alone, ${checkpointPartitions()} partitions; produced 1000 per send, consumed by a no-op eachBatch`,
  );
  const broker = await startMokapiBroker({
    topics: consignMokapiTopics().topics.filter((t) => t.name === CarrierTopic.Checkpoint),
  });
  try {
    const settings = kafkaJsConfig({
      clientId: 'bench',
      groupId: 'bench-noop',
      brokers: [broker.brokers],
    });
    const kafka = new Kafka({ ...settings.client, logLevel: logLevel.ERROR });
    const producer = kafka.producer(settings.producer);
    await producer.connect();
    const ids = Array.from({ length: LABELS }, (_, i) => i + 1);
    const messages = allEvents(ids).map((event) => ({
      key: String(event.label_id),
      value: JSON.stringify(event),
    }));
    const produceStarted = performance.now();
    for (let i = 0; i < messages.length; i += 1000)
      await producer.send({
        topic: CarrierTopic.Checkpoint,
        messages: messages.slice(i, i + 1000),
      });
    record('Mokapi alone: produce', produceStarted);
    await producer.disconnect();
    const consumer = kafka.consumer(settings.consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: CarrierTopic.Checkpoint, fromBeginning: true });
    let consumed = 0;
    let started = 0;
    await new Promise<void>((resolve) => {
      void consumer.run({
        partitionsConsumedConcurrently: 4,
        eachBatch: async ({ batch }) => {
          if (started === 0) started = performance.now();
          consumed += batch.messages.length;
          if (consumed >= TOTAL) resolve();
        },
      });
    });
    record('Mokapi alone: consume (from the first batch)', started);
    await consumer.disconnect();
  } finally {
    await broker.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  log(
    `machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${type()} ${release()}, Node ${process.version}`,
  );
  log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log(`${TOTAL} events for ${LABELS} labels (${EVENTS_PER_LABEL} each)`);
  log();
  const paths: Record<string, () => Promise<void>> = {
    bulk: benchBulkInsert,
    ingestor: benchIngestor,
    webhook: benchWebhook,
    kafka: () => benchKafka('live'),
    backlog: () => benchKafka('backlog'),
    broker: benchBroker,
  };
  for (const mode of MODES) {
    const path = paths[mode];
    if (!path) throw new Error(`unknown BENCH_MODES entry "${mode}"`);
    await path();
  }
  // The ceiling is the fastest bulk method of this run.
  const ceiling = results
    .filter((r) => r.path.startsWith('PostgreSQL bulk'))
    .sort((a, b) => b.rate - a.rate)[0];
  log();
  const width = Math.max(...results.map((r) => r.path.length));
  log(`${'path'.padEnd(width)}  ${'seconds'.padStart(8)}  ${'events/s'.padStart(9)}  of best bulk`);
  for (const r of results)
    log(
      `${r.path.padEnd(width)}  ${r.seconds.toFixed(2).padStart(8)}  ${r.rate.toFixed(0).padStart(9)}  ${ceiling ? `${((100 * r.rate) / ceiling.rate).toFixed(0)} %`.padStart(12) : ''}`,
    );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
