import { Deployment, aProduct, eventually } from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

/** The JSON log lines of the process that serves HTTP (the gateway, or the standalone app). */
function httpProcessLines(deployment: Deployment): Record<string, unknown>[] {
  const logs = deployment.logs();
  const output =
    deployment.mode === 'distributed'
      ? (logs.split(/^--- /m).find((s) => s.startsWith('api-gateway\n')) ?? '')
      : logs;
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.each(DEPLOYMENT_MODES)('access log (%s)', (mode, start) => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await start({ env: { LOG_FORMAT: 'json' } });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('writes one line per request: method, route, status, duration, merchant, correlation id; never the key', async () => {
    const api = deployment.client;
    const tag = `access-${mode}`;
    const headers = (n: number) => ({ 'x-correlation-id': `${tag}-${n}` });
    expect(
      (await api.request('GET', '/2025-07/cloud/order/999999?page=1', undefined, headers(1)))
        .status,
    ).toBe(404);
    expect(
      (await api.request('POST', '/2025-07/cloud/product', JSON.stringify(aProduct()), headers(2)))
        .status,
    ).toBe(200);
    expect(
      (
        await api
          .withKey(undefined)
          .request('GET', '/2025-07/cloud/warehouse', undefined, headers(3))
      ).status,
    ).toBe(401);

    const lines = await eventually(
      async () =>
        httpProcessLines(deployment).filter(
          (l) => l.context === 'HttpAccess' && String(l.correlation_id).startsWith(tag),
        ),
      (found) => found.length >= 3,
      { timeoutMs: 5_000 },
    );
    const byId = (n: number) => lines.filter((l) => l.correlation_id === `${tag}-${n}`);
    expect(byId(1)).toEqual([
      expect.objectContaining({
        level: 'log',
        msg: expect.stringMatching(/^GET \/2025-07\/cloud\/order\/:order_id 404 [\d.]+ms$/),
        method: 'GET',
        route: '/2025-07/cloud/order/:order_id',
        status: 404,
        duration_ms: expect.any(Number),
        merchant_id: expect.any(Number),
      }),
    ]);
    expect(byId(2)).toEqual([
      expect.objectContaining({
        method: 'POST',
        route: '/2025-07/cloud/product',
        status: 200,
        merchant_id: byId(1)[0].merchant_id,
      }),
    ]);
    // Refused before any key was accepted: no merchant.
    expect(byId(3)).toEqual([
      expect.objectContaining({ route: '/2025-07/cloud/warehouse', status: 401 }),
    ]);
    expect(byId(3)[0]).not.toHaveProperty('merchant_id');
    // Nothing written while serving these requests holds the API key, the Authorization header
    // or the raw URL. (The standalone app prints a generated bootstrap key once, at start.)
    const written = JSON.stringify(
      httpProcessLines(deployment).filter((l) => String(l.correlation_id).startsWith(tag)),
    );
    expect(written).toContain('HttpAccess');
    expect(written).not.toContain(deployment.apiKey);
    expect(written).not.toContain('999999');
    expect(written).not.toMatch(/authorization|bearer/i);
  });
});
