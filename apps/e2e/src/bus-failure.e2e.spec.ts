import { Deployment, startDistributed } from '@consign/testing';

describe('a service that stops answering (distributed)', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDistributed({ env: { BUS_TIMEOUT_MS: '1500' } });
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
});
