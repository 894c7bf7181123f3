import { Deployment, eventually, startDistributed } from '@consign/testing';

interface Readiness {
  status: number;
  body: { status: string; error: Record<string, { status: string; message?: string }> };
}

async function readiness(deployment: Deployment): Promise<Readiness> {
  const response = await fetch(`${deployment.client.baseUrl}/health/ready`);
  return { status: response.status, body: (await response.json()) as Readiness['body'] };
}

describe('a service that stops answering (distributed)', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDistributed({
      env: {
        BUS_TIMEOUT_MS: '1500',
        READINESS_BUS_TIMEOUTS: '3',
        READINESS_BUS_TIMEOUT_WINDOW_MS: '4000',
      },
    });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('is a 504 in the envelope, not a hang or a 500', async () => {
    expect((await deployment.client.get('/2025-07/cloud/product/all')).status).toBe(200);
    await deployment.stopService!('catalog-service');
    const started = Date.now();
    const response = await deployment.client.get('/2025-07/cloud/product/all');
    expect(response.status).toBe(504);
    expect(response.body).toEqual({
      code: 504,
      message: 'The catalog service did not answer in time.',
      data: null,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('makes the gateway unready, with the reason, while its requests keep timing out; ready again by itself', async () => {
    // catalog-service was stopped by the test above: every request to it times out.
    for (let i = 0; i < 3; i++)
      expect((await deployment.client.get('/2025-07/cloud/product/all')).status).toBe(504);
    const unready = await readiness(deployment);
    expect(unready.status).toBe(503);
    expect(unready.body.error.bus).toEqual({
      status: 'down',
      message: expect.stringMatching(
        /^requests to catalog keep timing out: the last \d+ on catalog\./,
      ),
      services: ['catalog'],
    });
    // No more traffic to it: once the window passed, the gateway is ready again by itself.
    await eventually(
      () => readiness(deployment),
      (answer) => answer.status === 200,
      { timeoutMs: 20_000, intervalMs: 250 },
    );
  });
});
