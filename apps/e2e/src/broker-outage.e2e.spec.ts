import {
  Deployment,
  ProcessHealth,
  aProduct,
  eventually,
  startDistributed,
} from '@consign/testing';

/**
 * The broker goes away (connections refused, its data lost) and later stalls (connections open,
 * nothing answers). No process may exit; each says it is not ready while it cannot consume or
 * hear replies, and is ready and serving again on the broker's return, without a restart.
 * Recovery times are printed, not asserted (a shared machine's timing is noise).
 */
describe('broker outages (distributed)', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDistributed();
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  const health = () => deployment.processHealth!();
  const noneExited = (processes: ProcessHealth[]) =>
    expect(processes.filter((p) => p.exited !== null).map((p) => `${p.name}: ${p.exited}`)).toEqual(
      [],
    );
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A create and a read through the gateway, the bus and catalog-service. */
  const serves = async () => {
    const created = await deployment.client.post<number>('/2025-07/cloud/product', aProduct());
    if (created.status !== 200) return false;
    const read = await deployment.client.get(`/2025-07/cloud/product/${created.body.data}`);
    return read.status === 200;
  };
  /** The test broker did not die by itself (Mokapi's own bugs, libs/testing/src/kafka). */
  const brokerNotDead = () =>
    expect({ died: deployment.broker!.exitStatus(), of: deployment.broker!.deathCause() }).toEqual({
      died: undefined,
      of: undefined,
    });
  const recovers = async (fault: string, since: number) => {
    const ready = await eventually(health, (all) => all.every((p) => p.ready === 200), {
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    noneExited(ready);
    const readyAfter = Date.now() - since;
    await eventually(serves, (ok) => ok, { timeoutMs: 60_000, intervalMs: 500 });
    process.stdout.write(
      `${fault}: every process ready ${readyAfter} ms and serving ${Date.now() - since} ms after the broker came back\n`,
    );
  };

  it('rides out a broker gone for 30 s: not ready meanwhile, no exit, serving again after', async () => {
    const served = await serves();
    brokerNotDead();
    expect(served).toBe(true);
    await deployment.broker!.stop();
    const down = Date.now();
    // Every process notices it cannot consume, the gateway that it cannot hear replies.
    const notReady = await eventually(health, (all) => all.every((p) => p.ready === 503), {
      timeoutMs: 30_000,
      intervalMs: 500,
    });
    noneExited(notReady);
    await sleep(Math.max(0, 30_000 - (Date.now() - down)));
    noneExited(await health());
    await deployment.broker!.start();
    await recovers('broker gone 30 s', Date.now());
  }, 300_000);

  it('rides out a broker frozen for 15 s', async () => {
    brokerNotDead();
    deployment.broker!.freeze();
    await sleep(15_000);
    noneExited(await health());
    deployment.broker!.thaw();
    await recovers('broker frozen 15 s', Date.now());
  }, 300_000);
});

/**
 * The whole platform starts while the broker is unreachable and stays so for more than 30 s
 * (kafkajs' own connection retries give up after about 25 s: a process that waited on them
 * exited). Every process serves /health/live, answers /health/ready 503 saying it is not
 * connected to the broker yet, and the gateway answers a request 503 in the envelope; once the
 * broker starts, every process connects by itself and the platform serves, with no restart.
 */
describe('a platform started while the broker is down (distributed)', () => {
  let deployment: Deployment;
  let started: number;

  beforeAll(async () => {
    started = Date.now();
    deployment = await startDistributed({ brokerDownAtStart: true });
  }, 180_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  it('starts, says why it is not ready, and connects once the broker comes up, without a restart', async () => {
    const health = () => deployment.processHealth!();
    const exited = (all: ProcessHealth[]) =>
      all.filter((p) => p.exited !== null).map((p) => `${p.name}: ${p.exited}`);
    const notConnected = await health();
    expect(exited(notConnected)).toEqual([]);
    for (const process of notConnected) {
      expect({ name: process.name, ready: process.ready }).toEqual({
        name: process.name,
        ready: 503,
      });
      expect(process.body).toContain('not connected to the broker yet');
    }
    const refused = await deployment.client.post('/2025-07/cloud/product', aProduct());
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();

    // Past kafkajs' retries: nothing exits, nothing connects.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 35_000 - (Date.now() - started))),
    );
    const stillDown = await health();
    expect(exited(stillDown)).toEqual([]);
    expect(stillDown.filter((p) => p.ready !== 503).map((p) => p.name)).toEqual([]);

    const up = Date.now();
    await deployment.broker!.start();
    const ready = await eventually(health, (all) => all.every((p) => p.ready === 200), {
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    expect(exited(ready)).toEqual([]);
    const readyAfter = Date.now() - up;
    const serves = async () => {
      const created = await deployment.client.post<number>('/2025-07/cloud/product', aProduct());
      if (created.status !== 200) return false;
      return (await deployment.client.get(`/2025-07/cloud/product/${created.body.data}`)).status;
    };
    await eventually(serves, (status) => status === 200, { timeoutMs: 60_000, intervalMs: 500 });
    process.stdout.write(
      `broker down at start for ${Math.round((up - started) / 1000)} s: every process ready ${readyAfter} ms and serving ${Date.now() - up} ms after the broker came up\n`,
    );
  }, 300_000);
});
