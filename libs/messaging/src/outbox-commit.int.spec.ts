import { DataSource, EntityManager } from 'typeorm';
import { CatalogEvent, ProductCreatedEvent } from '@consign/contracts';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { MessagingSchema, eventually, openMessagingSchema } from '@consign/testing';
import { parkDeadLetters } from './dead-letter';
import { Outbox } from './outbox';

const SCHEMA = 'outbox_commit_test';
const payload: ProductCreatedEvent = { product_id: 1, variants: [{ id: 2, sku: 'A' }] };
/** No poll within a test: only a nudge can start the relay. */
const NOT_POLLING = { pollIntervalMs: 600_000 };
/** Far above a nudged relay's few milliseconds, far below the poll. */
const SOON = { timeoutMs: 5_000, intervalMs: 20 };

describe.each([
  ['the tests’ database', false],
  ['the embedded database', true],
])('the outbox relay, started by each commit that added events (%s)', (_title, embedded) => {
  let schema: MessagingSchema;
  let dataSource: DataSource;
  let outbox: Outbox;
  let published: string[];

  beforeAll(async () => {
    schema = await openMessagingSchema('outbox-commit-test', SCHEMA, { embedded });
    dataSource = schema.dataSource;
  });

  afterAll(async () => {
    await schema.close();
  });

  beforeEach(async () => {
    await schema.truncate();
    const broker = new InProcessBroker();
    published = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (event) => {
      published.push((event as { aggregate_id: string }).aggregate_id);
    });
    outbox = new Outbox(dataSource, new InProcessClient(broker), SCHEMA, NOT_POLLING);
    outbox.start();
    // The start's own look at the table, over before a test writes.
    await outbox.flush();
  });

  afterEach(async () => {
    await outbox.stop();
  });

  const add = (manager: EntityManager, aggregateId: number) =>
    outbox.add(manager, CatalogEvent.ProductCreated, { merchantId: 3, aggregateId, payload });

  const pending = async () =>
    Number(
      (
        await dataSource.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM "${SCHEMA}"."outbox_event" WHERE published_at IS NULL`,
        )
      )[0].n,
    );

  it('publishes what a transaction added as soon as it commits', async () => {
    await dataSource.transaction(async (manager) => {
      await add(manager, 1);
      await add(manager, 2);
    });
    await eventually(
      async () => published,
      (ids) => ids.length === 2,
      SOON,
    );
    expect(published).toEqual(['1', '2']);
  });

  it('waits for the outermost commit: a savepoint released is not one', async () => {
    // A nudge at the savepoint would find nothing committed, and none would follow the commit.
    await dataSource.transaction(async (manager) => {
      await manager.transaction((inner) => add(inner, 3));
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    await eventually(
      async () => published,
      (ids) => ids.length === 1,
      SOON,
    );
    expect(published).toEqual(['3']);
  });

  it('publishes nothing of a transaction rolled back, and the next commit still starts it', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await add(manager, 4);
        throw new Error('the use case failed');
      }),
    ).rejects.toThrow('the use case failed');
    await dataSource.transaction((manager) => add(manager, 5));
    await eventually(
      async () => published,
      (ids) => ids.length === 1,
      SOON,
    );
    expect(published).toEqual(['5']);
    expect(await pending()).toBe(0);
  });

  it('publishes an event added outside any transaction', async () => {
    await add(dataSource.manager, 6);
    await eventually(
      async () => published,
      (ids) => ids.length === 1,
      SOON,
    );
    expect(published).toEqual(['6']);
  });

  it('publishes dead letters parked for their .dlt topic once the parking commits', async () => {
    await dataSource.transaction((manager) =>
      parkDeadLetters(
        manager,
        SCHEMA,
        [
          {
            consumer: 'test',
            topic: CatalogEvent.ProductCreated,
            value: { not: 'an envelope' },
            error: 'malformed',
            attempts: 1,
            key: 'k-1',
            headers: {},
          },
        ],
        { toTopic: true },
      ),
    );
    await eventually(pending, (n) => n === 0, SOON);
  });

  it('no longer listens once stopped: what is added then waits for the next start', async () => {
    await outbox.stop();
    await dataSource.transaction((manager) => add(manager, 7));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(published).toEqual([]);
    expect(await pending()).toBe(1);
    outbox.start();
    await eventually(
      async () => published,
      (ids) => ids.length === 1,
      SOON,
    );
    expect(published).toEqual(['7']);
  });
});
