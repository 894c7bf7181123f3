import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CatalogEvent, ProductCreatedEvent } from '@consign/contracts';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { MessagingSchema, eventually, openMessagingSchema } from '@consign/testing';
import { Outbox, OutboxOptions } from './outbox';

const SCHEMA = 'outbox_sole_writer_test';
const payload: ProductCreatedEvent = { product_id: 1, variants: [{ id: 2, sku: 'A' }] };
/** The default poll of a relay that may share its table: 1 s. */
const SHARED: OutboxOptions = {};
/** The embedded database's relay (DatabaseHost.exclusive), with its default safety poll (30 s). */
const SOLE: OutboxOptions = { soleWriter: true };

describe.each([
  ['the tests’ database', false],
  ['the embedded database', true],
])('a sole writer’s outbox relay (%s)', (_title, embedded) => {
  let schema: MessagingSchema;
  let dataSource: DataSource;
  let outbox: Outbox | undefined;
  let published: string[];
  let failures: number;

  beforeAll(async () => {
    schema = await openMessagingSchema('outbox-sole-writer-test', SCHEMA, { embedded });
    dataSource = schema.dataSource;
  });

  afterAll(async () => {
    await schema.close();
  });

  beforeEach(async () => {
    await schema.truncate();
    published = [];
    failures = 0;
  });

  afterEach(async () => {
    await outbox?.stop();
    outbox = undefined;
  });

  /** A relay over a broker whose consumer fails the first `failing` events it is given. */
  async function start(options: OutboxOptions, failing = 0): Promise<Outbox> {
    const broker = new InProcessBroker();
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (event) => {
      if (failures < failing) {
        failures++;
        throw new Error('the consumer is down');
      }
      published.push((event as { aggregate_id: string }).aggregate_id);
    });
    outbox = new Outbox(dataSource, new InProcessClient(broker), SCHEMA, options);
    outbox.start();
    return outbox;
  }

  /** A row written behind the relay's back (what another process would do), leased or not. */
  async function insertUnannounced(aggregateId: number, leasedForSeconds = 0): Promise<void> {
    const envelope = {
      event_id: randomUUID(),
      merchant_id: 3,
      aggregate_id: String(aggregateId),
      occurred_at: new Date().toISOString(),
      payload,
    };
    await dataSource.query(
      `INSERT INTO "${SCHEMA}"."outbox_event" (event_id, topic, message_key, envelope, headers, attempts, locked_until)
       VALUES ($1, $2, $3, $4, '{}', $5, CASE WHEN $6::int > 0 THEN now() + make_interval(secs => $6::int) END)`,
      [
        envelope.event_id,
        CatalogEvent.ProductCreated,
        envelope.aggregate_id,
        JSON.stringify(envelope),
        leasedForSeconds > 0 ? 1 : 0,
        leasedForSeconds,
      ],
    );
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The ids published, once there are `count` of them (within `timeoutMs`). */
  const publishedOnce = (count: number, timeoutMs = 5_000) =>
    eventually(
      async () => published,
      (ids) => ids.length === count,
      { timeoutMs, intervalMs: 20 },
    );

  it('does not poll every second: a row it was not told of waits for its safety poll', async () => {
    await (await start(SOLE)).flush();
    await insertUnannounced(1);
    await pause(2_500);
    expect(published).toEqual([]);
    // A relay that may share its table finds the same row at its next poll.
    await outbox?.stop();
    await (await start(SHARED)).flush();
    await insertUnannounced(2);
    expect(await publishedOnce(2)).toEqual(['1', '2']);
  });

  it('publishes what it commits at once, nudged by the commit', async () => {
    const relay = await start(SOLE);
    await relay.flush();
    await dataSource.transaction((manager) =>
      relay.add(manager, CatalogEvent.ProductCreated, { merchantId: 3, aggregateId: 3, payload }),
    );
    expect(await publishedOnce(1)).toEqual(['3']);
  });

  it('takes a failed publish again when its backoff ends (2 s), not at its poll', async () => {
    const relay = await start(SOLE, 1);
    await relay.flush();
    await relay.add(dataSource.manager, CatalogEvent.ProductCreated, {
      merchantId: 3,
      aggregateId: 4,
      payload,
    });
    await eventually(
      async () => failures,
      (n) => n === 1,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(published).toEqual([]);
    expect(await publishedOnce(1, 8_000)).toEqual(['4']);
  });

  it('frees at start the leases a process that died here left, and publishes their rows', async () => {
    await insertUnannounced(5, 30);
    await start(SOLE);
    expect(await publishedOnce(1)).toEqual(['5']);
  });

  it('leaves such a lease alone when the table may be shared: another replica may hold it', async () => {
    await insertUnannounced(6, 30);
    await (await start(SHARED)).flush();
    await pause(1_500);
    expect(published).toEqual([]);
  });
});
