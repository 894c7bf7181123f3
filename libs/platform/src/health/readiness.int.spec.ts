import { ClientProxy } from '@nestjs/microservices';
import type { HealthIndicatorService } from '@nestjs/terminus' with { 'resolution-mode': 'import' };
import { of } from 'rxjs';
import { DataSource } from 'typeorm';
import { OrderEvent } from '@consign/contracts';
import { AppConfig } from '@consign/config';
import { DatabaseHost } from '@consign/database';
import { resolveServiceDatabase, Outbox } from '@consign/messaging';
import { BusHealth } from '@consign/bus';
import { OutboxHealth } from '@consign/observability';
import { Readiness } from './readiness';
import { ShutdownState } from './shutdown-state';
import { TestDatabase, createTestDatabase } from '@consign/testing';

/** Terminus' indicator results, as its HealthIndicatorService makes them (an ES module jest cannot load). */
const indicators = {
  check: (key: string) => ({
    up: (data: object = {}) => ({ [key]: { status: 'up', ...data } }),
    down: (data: object = {}) => ({ [key]: { status: 'down', ...data } }),
  }),
} as unknown as HealthIndicatorService;

function readiness(
  config: Partial<AppConfig>,
  registries: { outboxes?: OutboxHealth; bus?: BusHealth },
): Readiness {
  return new Readiness(
    indicators,
    Object.assign(new AppConfig(), config),
    new ShutdownState(),
    {} as DatabaseHost,
    registries.outboxes,
    registries.bus,
  );
}

describe('readiness: requests to a service that keep timing out', () => {
  const TOPIC = 'catalog.product.get.v1';
  const t0 = 1_000_000;

  it('fails after READINESS_BUS_TIMEOUTS timeouts in a row, naming the service and topic', () => {
    const bus = new BusHealth();
    const ready = readiness({ READINESS_BUS_TIMEOUTS: 3 }, { bus });
    bus.record(TOPIC, 'timeout', t0);
    bus.record(TOPIC, 'timeout', t0 + 1);
    bus.record('order.get.v1', 'timeout', t0 + 1);
    expect(ready.busCheck(t0 + 2)).toEqual({ bus: { status: 'up' } });
    bus.record(TOPIC, 'timeout', t0 + 2_000);
    expect(ready.busCheck(t0 + 4_000)).toEqual({
      bus: {
        status: 'down',
        message: `requests to catalog keep timing out: the last 3 on ${TOPIC}, the latest 2 s ago`,
        services: ['catalog'],
      },
    });
  });

  it('recovers by itself: at the next answer, or once the window passed without timeouts', () => {
    const bus = new BusHealth();
    const config = { READINESS_BUS_TIMEOUTS: 2, READINESS_BUS_TIMEOUT_WINDOW_MS: 30_000 };
    const ready = readiness(config, { bus });
    bus.record(TOPIC, 'timeout', t0);
    bus.record(TOPIC, 'timeout', t0);
    expect(ready.busCheck(t0 + 29_999).bus.status).toBe('down');
    expect(ready.busCheck(t0 + 30_000).bus.status).toBe('up');
    // Traffic comes back and still times out: unready again at once.
    bus.record(TOPIC, 'timeout', t0 + 31_000);
    expect(ready.busCheck(t0 + 31_000).bus.status).toBe('down');
    // An answer (a refusal too) shows the service and the replies work.
    bus.record(TOPIC, 'failure', t0 + 32_000);
    expect(ready.busCheck(t0 + 32_000).bus.status).toBe('up');
    // "Unavailable" (no bus, no handler) neither counts nor resets: the broker check tells.
    bus.record(TOPIC, 'timeout', t0 + 33_000);
    bus.record(TOPIC, 'unavailable', t0 + 33_000);
    bus.record(TOPIC, 'timeout', t0 + 33_000);
    expect(ready.busCheck(t0 + 33_000).bus.status).toBe('down');
  });

  it('is off with READINESS_BUS_TIMEOUTS=0', () => {
    const bus = new BusHealth();
    bus.record(TOPIC, 'timeout', t0);
    expect(readiness({ READINESS_BUS_TIMEOUTS: 0 }, { bus }).busCheck(t0).bus.status).toBe('up');
  });
});

describe('readiness: an outbox that stops draining', () => {
  const SCHEMA = 'readiness_test';
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let outbox: Outbox;
  const published: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(
      resolveServiceDatabase({
        name: 'readiness-test',
        schema: SCHEMA,
        entities: [],
        migrations: [],
      }),
    );
    const client = {
      emit: (topic: string) => {
        published.push(topic);
        return of(undefined);
      },
    } as unknown as ClientProxy;
    outbox = new Outbox(dataSource, client, SCHEMA);
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('fails while the oldest unpublished event is older than the limit, and recovers once relayed', async () => {
    const outboxes = new OutboxHealth();
    outboxes.track(SCHEMA, () => outbox.oldestPendingAgeSeconds());
    const ready = readiness({ READINESS_MAX_OUTBOX_AGE_MS: 60_000 }, { outboxes });
    let now = Date.now();
    await expect(ready.outboxCheck(now)).resolves.toEqual({
      outbox: { status: 'up', outboxes: 1 },
    });

    // An event the relay has not published for two minutes (the relay is not running here).
    await dataSource.transaction((manager) =>
      outbox.add(manager, OrderEvent.Cancelled, {
        merchantId: 1,
        aggregateId: 7,
        payload: { order_id: 7 } as never,
      }),
    );
    await dataSource.query(
      `UPDATE "${SCHEMA}".outbox_event SET created_at = now() - interval '120 seconds'`,
    );
    now += 2_000;
    const down = await ready.outboxCheck(now);
    expect(down.outbox).toMatchObject({
      status: 'down',
      message: expect.stringMatching(
        new RegExp(
          `the outbox of ${SCHEMA} is not draining: its oldest unpublished event is 12\\d s old \\(at most 60 s\\)`,
        ),
      ),
    });

    await outbox.flush();
    expect(published).toEqual([OrderEvent.Cancelled]);
    now += 2_000;
    await expect(ready.outboxCheck(now)).resolves.toEqual({
      outbox: { status: 'up', outboxes: 1 },
    });
  });

  it('leaves an outbox whose age cannot be read to the database check, and is off at 0', async () => {
    const outboxes = new OutboxHealth();
    outboxes.track('broken', () => Promise.reject(new Error('connection lost')));
    outboxes.track('late', () => Promise.resolve(3_600));
    await expect(
      readiness({ READINESS_MAX_OUTBOX_AGE_MS: 60_000 }, { outboxes }).outboxCheck(),
    ).resolves.toMatchObject({
      outbox: { status: 'down', outboxes: { late: { oldest_pending_seconds: 3600 } } },
    });
    await expect(
      readiness({ READINESS_MAX_OUTBOX_AGE_MS: 0 }, { outboxes }).outboxCheck(),
    ).resolves.toEqual({ outbox: { status: 'up', checked: false } });
  });
});
