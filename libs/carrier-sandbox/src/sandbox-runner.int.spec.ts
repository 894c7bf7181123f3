import { CarrierCheckpointEvent, CarrierTopic } from '@consign/contracts';
import { DatabaseHost } from '@consign/database';
import { FakeClock } from '@consign/core';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { DataSource } from 'typeorm';
import { CarrierSandboxConfig } from './carrier-sandbox.config';
import { carrierSandboxDatabase } from './carrier-sandbox.database';
import { SandboxRunner } from './sandbox-runner';
import { SandboxParcelRepository } from './sandbox-parcel.repository';
import { SCENARIO_STEPS, SandboxScenario } from './sandbox-script';
import { TestDatabase, createTestDatabase } from '@consign/testing';

describe('SandboxRunner', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let broker: InProcessBroker;
  let published: CarrierCheckpointEvent[];
  let failPublishing: boolean;
  const clock = new FakeClock('2026-05-01T08:00:00.000Z');

  const runner = (settings: Partial<CarrierSandboxConfig> = {}) =>
    new SandboxRunner(
      dataSource,
      new InProcessClient(broker),
      clock,
      Object.assign(new CarrierSandboxConfig(), {
        CARRIER_SANDBOX_STEP_MS: 60_000,
        CARRIER_SANDBOX_SCENARIOS: 'failed_attempt',
        ...settings,
      }),
      new SandboxParcelRepository(),
    );
  const adopt = (sandbox: SandboxRunner, labelId: number, serviceCode = 'DHL-EXPRESS') =>
    dataSource.transaction((manager) =>
      sandbox.adopt(manager, { label_id: labelId, service_code: serviceCode, carrier_code: null }),
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(carrierSandboxDatabase.options);
    broker = new InProcessBroker();
    broker.registerEventHandler(CarrierTopic.Checkpoint, async (event) => {
      if (failPublishing) throw new Error('bus down');
      published.push(event as CarrierCheckpointEvent);
    });
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  beforeEach(() => {
    published = [];
    failPublishing = false;
  });

  it('allocates within seconds, then publishes one step per CARRIER_SANDBOX_STEP_MS', async () => {
    const sandbox = runner();
    await adopt(sandbox, 101);
    expect(await sandbox.tick()).toBe(0);
    clock.advance(2_000);
    expect(await sandbox.tick()).toBe(1);
    expect(published[0]).toMatchObject({
      label_id: 101,
      carrier_code: 'DHL',
      event_code: 'SD',
      allocation: { tracking_courier: 'DHL', tracking_number: '3000001012' },
    });
    clock.advance(59_999);
    expect(await sandbox.tick()).toBe(0);
    clock.advance(1);
    expect(await sandbox.tick()).toBe(1);
    expect(published[1]).toMatchObject({
      event_code: 'PU',
      event_time: '2026-05-01T09:01:02+01:00',
    });
    expect(published[1]).not.toHaveProperty('allocation');
  });

  it('catches up with every step that fell due while it was not ticking, and then stops', async () => {
    const sandbox = runner();
    await adopt(sandbox, 102);
    clock.advance(24 * 60 * 60_000);
    await sandbox.tick();
    const mine = published.filter((e) => e.label_id === 102);
    expect(mine.map((e) => e.event_code)).toEqual(['SD', 'PU', 'AF', 'AR', 'WC', 'NH', 'WC', 'OK']);
    expect(mine).toHaveLength(SCENARIO_STEPS[SandboxScenario.FailedAttempt].length);
    clock.advance(24 * 60 * 60_000);
    expect(await sandbox.tick()).toBe(0);
  });

  it('takes a label once, whatever how often it hears of it', async () => {
    const sandbox = runner();
    await adopt(sandbox, 103);
    await adopt(sandbox, 103);
    clock.advance(2_000);
    await sandbox.tick();
    expect(published.filter((e) => e.label_id === 103)).toHaveLength(1);
  });

  it('leaves carriers it does not play to their real adapters', async () => {
    const sandbox = runner({ CARRIER_SANDBOX_CARRIERS: 'UPS,USPS' });
    await expect(adopt(sandbox, 104, 'DHL-EXPRESS')).resolves.toBe(false);
    await expect(adopt(sandbox, 105, 'UPS-GROUND')).resolves.toBe(true);
  });

  it('keeps a step it could not publish, and publishes it after the lease', async () => {
    const sandbox = runner();
    await adopt(sandbox, 106);
    clock.advance(2_000);
    failPublishing = true;
    await expect(sandbox.tick()).rejects.toThrow('bus down');
    failPublishing = false;
    expect(await sandbox.tick()).toBe(0);
    clock.advance(30_001);
    await sandbox.tick();
    expect(published.filter((e) => e.label_id === 106).map((e) => e.event_code)).toEqual(['SD']);
  });

  it('reports an order’s shipment by its tracking number, keyed by it', async () => {
    const sandbox = runner();
    await dataSource.transaction((manager) =>
      sandbox.adoptShipment(manager, {
        shipment_id: 1,
        order_id: 77,
        tracking_id: 300,
        carrier_code: 'UPS',
        tracking_number: '1Z999AA10123456784',
      }),
    );
    clock.advance(2_000);
    await sandbox.tick();
    const [event] = published.filter((e) => e.tracking_number === '1Z999AA10123456784');
    expect(event).toMatchObject({ carrier_code: 'UPS', event_code: 'M' });
    expect(event).not.toHaveProperty('label_id');
    expect(event).not.toHaveProperty('allocation');
  });

  it('shares the work between replicas: each step is published once', async () => {
    const replicas = [runner(), runner(), runner()];
    for (let id = 200; id < 260; id++) await adopt(replicas[0], id);
    clock.advance(2_000);
    await Promise.all(replicas.map((replica) => replica.tick()));
    const allocations = published.filter((e) => e.label_id! >= 200 && e.label_id! < 260);
    expect(allocations).toHaveLength(60);
    expect(new Set(allocations.map((e) => e.label_id)).size).toBe(60);
  });
});
