import { BusConnections, connectInBackground } from './bus-connection';

const FAST = { initialBackoffMs: 5, maxBackoffMs: 20 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connectInBackground', () => {
  it('retries a failing connection, resetting after each failure, until it connects', async () => {
    const registry = new BusConnections();
    const calls: string[] = [];
    let failures = 3;
    const connection = connectInBackground(
      'order-service-server',
      async () => {
        calls.push('attempt');
        if (failures-- > 0) throw new Error('Connection error: connect ECONNREFUSED');
      },
      { reset: async () => void calls.push('reset'), backoff: FAST, registry },
    );
    expect(connection.isConnected()).toBe(false);
    await sleep(1);
    const [pending] = registry.pending();
    expect(pending).toMatchObject({
      name: 'order-service-server',
      connected: false,
      lastError: 'Connection error: connect ECONNREFUSED',
    });
    await connection.connected;
    expect(connection.isConnected()).toBe(true);
    expect(calls).toEqual(['attempt', 'reset', 'attempt', 'reset', 'attempt', 'reset', 'attempt']);
    expect(registry.pending()).toEqual([]);
  });

  it('stops trying once released (shutdown), and leaves the registry', async () => {
    const registry = new BusConnections();
    let attempts = 0;
    const connection = connectInBackground(
      'api-gateway-client',
      async () => {
        attempts++;
        throw new Error('down');
      },
      { reset: async () => undefined, backoff: FAST, registry },
    );
    await sleep(50);
    connection.release();
    const after = attempts;
    expect(after).toBeGreaterThan(1);
    await sleep(80);
    expect(attempts).toBe(after);
    expect(registry.pending()).toEqual([]);
    expect(connection.isConnected()).toBe(false);
  });

  it('undoes an attempt that succeeds after it was released', async () => {
    const registry = new BusConnections();
    const calls: string[] = [];
    let finish: () => void = () => undefined;
    const connection = connectInBackground(
      'webhook-dispatcher-server',
      () => new Promise<void>((resolve) => (finish = resolve)),
      { reset: async () => void calls.push('reset'), backoff: FAST, registry },
    );
    connection.release();
    finish();
    await sleep(10);
    expect(calls).toEqual(['reset']);
    expect(connection.isConnected()).toBe(false);
  });

  it('says when every connection under way is made, and never once one is released', async () => {
    const registry = new BusConnections();
    const finish: Record<string, () => void> = {};
    const start = (name: string) =>
      connectInBackground(name, () => new Promise<void>((resolve) => (finish[name] = resolve)), {
        reset: async () => undefined,
        backoff: FAST,
        registry,
      });
    start('catalog-service-server');
    start('catalog-service-client');
    let made = false;
    void registry.allMade().then(() => (made = true));
    finish['catalog-service-server']();
    await sleep(5);
    expect(made).toBe(false);
    finish['catalog-service-client']();
    await sleep(5);
    expect(made).toBe(true);

    const released = start('webhook-dispatcher-server');
    let madeAfterRelease = false;
    void registry.allMade().then(() => (madeAfterRelease = true));
    released.release();
    await sleep(20);
    expect(madeAfterRelease).toBe(false);
    await expect(registry.allMade()).resolves.toBeUndefined();
  });
});
