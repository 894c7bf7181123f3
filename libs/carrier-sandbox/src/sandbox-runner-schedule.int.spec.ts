import { CarrierCheckpointEvent, CarrierTopic } from '@consign/contracts';
import { DatabaseHost } from '@consign/database';
import { systemClock } from '@consign/core';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { DataSource } from 'typeorm';
import { TestDatabase, createTestDatabase, eventually } from '@consign/testing';
import { CarrierSandboxConfig } from './carrier-sandbox.config';
import { carrierSandboxDatabase } from './carrier-sandbox.database';
import { SandboxRunner } from './sandbox-runner';
import { SandboxParcelRepository } from './sandbox-parcel.repository';

/** A step every 400 ms: the first (allocation) 400 ms after adoption, the shared runner's tick 100 ms. */
const STEP_MS = 400;

describe.each([
  ['shares its database with other replicas', false],
  ['is the only writer of its database (the embedded one)', true],
])('a started SandboxRunner that %s', (_title, exclusive) => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let arrivals: { labelId: number; at: number }[];
  let parcels: SandboxParcelRepository;
  let claims: jest.SpyInstance;
  let sandbox: SandboxRunner;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(carrierSandboxDatabase.options);
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  beforeEach(() => {
    arrivals = [];
    const broker = new InProcessBroker();
    broker.registerEventHandler(CarrierTopic.Checkpoint, async (event) => {
      arrivals.push({ labelId: (event as CarrierCheckpointEvent).label_id!, at: Date.now() });
    });
    parcels = new SandboxParcelRepository();
    claims = jest.spyOn(parcels, 'claim');
    sandbox = new SandboxRunner(
      dataSource,
      new InProcessClient(broker),
      systemClock,
      Object.assign(new CarrierSandboxConfig(), {
        CARRIER_SANDBOX_STEP_MS: STEP_MS,
        CARRIER_SANDBOX_SCENARIOS: 'failed_attempt',
      }),
      parcels,
      { exclusive },
    );
    sandbox.onApplicationBootstrap();
  });

  afterEach(async () => {
    await sandbox.beforeApplicationShutdown();
  });

  const adopt = (labelId: number) =>
    dataSource.transaction((manager) =>
      sandbox.adopt(manager, {
        label_id: labelId,
        service_code: 'DHL-EXPRESS',
        carrier_code: null,
      }),
    );

  it(
    exclusive
      ? 'claims once at start, then not while nothing falls due'
      : 'claims every tick, for parcels another replica adopted',
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (exclusive) expect(claims.mock.calls.length).toBeLessThanOrEqual(1);
      else expect(claims.mock.calls.length).toBeGreaterThanOrEqual(5);
    },
  );

  it('plays an adopted label’s steps at their times, none early', async () => {
    // The start's own look over first: the adoption's commit, not that look, must wake a sole
    // writer (which would otherwise sleep its 30 s).
    await eventually(
      async () => claims.mock.calls.length,
      (calls) => calls >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const adoptedAt = Date.now();
    await adopt(201);
    await eventually(
      async () => arrivals.filter((a) => a.labelId === 201),
      (mine) => mine.length >= 3,
      { timeoutMs: 10_000 },
    );
    const times = arrivals.filter((a) => a.labelId === 201).map((a) => a.at - adoptedAt);
    times.slice(0, 3).forEach((time, step) => {
      expect(time).toBeGreaterThanOrEqual((step + 1) * STEP_MS - 20);
      // Far sooner than a sole writer's 30 s safety tick.
      expect(time).toBeLessThan((step + 1) * STEP_MS + 1_000);
    });
  });
});
