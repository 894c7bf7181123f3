import { Deployment, startStandalone } from '@consign/testing';

describe('rate limit', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startStandalone({
      env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' },
    });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('answers 429 in the envelope with Retry-After once a key used up its window', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await deployment.client.get('/2025-07/cloud/product/all')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await deployment.client.get('/2025-07/cloud/product/all');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 429, data: null });
    expect(limited.body.message).toMatch(/too many requests/i);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts each key on its own', async () => {
    const other = await deployment.createMerchant('Quiet merchant');
    expect((await other.get('/2025-07/cloud/product/all')).status).toBe(200);
  });
});
