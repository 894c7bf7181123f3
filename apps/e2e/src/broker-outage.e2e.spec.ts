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
    expect(await serves()).toBe(true);
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
    deployment.broker!.freeze();
    await sleep(15_000);
    noneExited(await health());
    deployment.broker!.thaw();
    await recovers('broker frozen 15 s', Date.now());
  }, 300_000);
});
