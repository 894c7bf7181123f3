import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyPageView, IssuedApiKeyView } from '@consign/contracts';
import {
  ADMIN_PATH,
  Deployment,
  eventually,
  freePort,
  runAdminCli,
  startApp,
  startStandalone,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

const ORDERS = '/2025-07/cloud/order';

/** Revocation reaches every gateway within this bound (issue: 5 seconds); polled, not timed. */
const REVOCATION_BOUND_MS = 5_000;

describe.each(DEPLOYMENT_MODES)('%s: administration while the platform runs', (mode, start) => {
  let deployment: Deployment;
  /** A second gateway process needs a deployment of separate processes. */
  const itDistributed = mode.startsWith('distributed') ? it : it.skip;

  beforeAll(async () => {
    deployment = await start();
  }, 180_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  it('keeps the admin API to admin keys, and admin keys to the admin API', async () => {
    const admin = deployment.admin.client;
    expect((await admin.get(ORDERS)).body).toEqual({
      code: 403,
      message: expect.stringContaining('admin key'),
      data: null,
    });
    expect((await deployment.client.get(`${ADMIN_PATH}/merchant`)).status).toBe(403);
    expect((await deployment.client.withKey(undefined).get(`${ADMIN_PATH}/merchant`)).status).toBe(
      401,
    );
    const merchants = await admin.get<{ total: number }>(`${ADMIN_PATH}/merchant`);
    expect(merchants.status).toBe(200);
    expect(merchants.body.data?.total).toBeGreaterThanOrEqual(1);
  });

  it('creates a merchant whose key works at once, shows keys only by prefix, and revokes them', async () => {
    const { merchantId, apiKey } = await deployment.admin.createMerchant('Live Ltd');
    const merchant = deployment.client.withKey(apiKey);
    expect((await merchant.get(ORDERS)).status).toBe(200);

    const listed = await deployment.admin.client.get(`${ADMIN_PATH}/key?merchant_id=${merchantId}`);
    expect(listed.body.data).toMatchObject({
      total: 1,
      list: [{ merchant_id: merchantId, role: 'merchant', prefix: apiKey.slice(0, 12) }],
    });
    expect(JSON.stringify(listed.body)).not.toContain(apiKey);

    await deployment.admin.revokeKey(apiKey);
    await eventually(
      () => merchant.get(ORDERS),
      (response) => response.status === 401,
      { timeoutMs: REVOCATION_BOUND_MS },
    );
    // Revoking again answers the same record.
    const again = await deployment.admin.client.post(`${ADMIN_PATH}/key/revoke`, {
      api_key: apiKey,
    });
    expect(again.body.data).toMatchObject({ revoked_time: expect.any(String) });
  });

  it('issues and revokes carrier credentials', async () => {
    const carrier = await deployment.createCarrierKey('DHL');
    const events = { events: [] as unknown[] };
    const path = '/2026-05/cloud/carrier/DHL/events';
    expect((await carrier.post(path, events)).status).not.toBe(401);
    const revoked = await deployment.admin.client.post(`${ADMIN_PATH}/carrier-credential/revoke`, {
      credential: carrier.apiKey,
    });
    expect(revoked.status).toBe(200);
    await eventually(
      () => carrier.post(path, events),
      (response) => response.status === 401,
      { timeoutMs: REVOCATION_BOUND_MS },
    );
  });

  it('refuses to revoke the last admin key', async () => {
    const second = await deployment.admin.createKey(null, 'admin');
    expect(second).toMatchObject({ role: 'admin', merchant_id: null });
    expect(
      (await deployment.admin.client.post(`${ADMIN_PATH}/key/${second.id}/revoke`)).status,
    ).toBe(200);
    const last = await deployment.admin.client.post(`${ADMIN_PATH}/key/revoke`, {
      api_key: deployment.adminKey,
    });
    expect(last.body).toEqual({ code: 409, message: expect.stringContaining('last'), data: null });
    expect((await deployment.admin.client.get(`${ADMIN_PATH}/merchant`)).status).toBe(200);
  });

  it('answers bad admin requests with a 400 naming the field, and changes nothing', async () => {
    const before = await deployment.admin.client.get<{ total: number }>(`${ADMIN_PATH}/merchant`);
    const bad = await deployment.admin.client.post(`${ADMIN_PATH}/merchant`, { name: ' ' });
    expect(bad.body).toEqual({ code: 400, message: expect.stringContaining('name'), data: null });
    const noMerchant = await deployment.admin.client.post(`${ADMIN_PATH}/key`, {
      role: 'operator',
      merchant_id: 999999,
    });
    expect(noMerchant.status).toBe(404);
    const after = await deployment.admin.client.get<{ total: number }>(`${ADMIN_PATH}/merchant`);
    expect(after.body.data?.total).toBe(before.body.data?.total);
  });

  it('gives a merchant created with a null role a merchant key', async () => {
    // null is taken as absent (README, HTTP rules), and docs/openapi.json lists it among the
    // role's values: the request goes through the validating proxy.
    const created = await deployment.admin.client.post<{
      merchant: { id: number };
      key: { role: string; merchant_id: number; api_key: string };
    }>(`${ADMIN_PATH}/merchant`, { name: 'Null Role Ltd', role: null });
    expect(created.status).toBe(200);
    const { merchant, key } = created.body.data!;
    expect(key).toMatchObject({ role: 'merchant', merchant_id: merchant.id });
    expect((await deployment.client.withKey(key.api_key).get(ORDERS)).status).toBe(200);
  });

  it('manages the live platform with the admin command through --url', async () => {
    const url = deployment.client.baseUrl;
    const created = await runAdminCli({}, [
      '--url',
      url,
      '--admin-key',
      deployment.adminKey,
      'merchant',
      'create',
      '--name',
      'Shell Ltd',
    ]);
    expect(created.code).toBe(0);
    const key = created.values.get('api_key') as string;
    const merchant = deployment.client.withKey(key);
    expect((await merchant.get(ORDERS)).status).toBe(200);
    const revoked = await runAdminCli(
      { CONSIGN_URL: url, CONSIGN_ADMIN_KEY: deployment.adminKey },
      ['key', 'revoke', key],
    );
    expect(revoked).toMatchObject({ code: 0, stdout: 'revoked\n' });
    await eventually(
      () => merchant.get(ORDERS),
      (response) => response.status === 401,
      { timeoutMs: REVOCATION_BOUND_MS },
    );
  });

  itDistributed(
    'refuses a key revoked through one gateway on another within 5 seconds',
    async () => {
      if (!deployment.startGateway) throw new Error('a distributed deployment starts gateways');
      const second = await deployment.startGateway();
      try {
        const { apiKey } = await deployment.admin.createMerchant('Two Gateways Ltd');
        const onFirst = deployment.client.withKey(apiKey);
        const onSecond = second.client.withKey(apiKey);
        // Both gateways know the key (cached) before it is revoked.
        expect((await onFirst.get(ORDERS)).status).toBe(200);
        expect((await onSecond.get(ORDERS)).status).toBe(200);
        expect((await onSecond.get(ORDERS)).status).toBe(200);

        await deployment.admin.revokeKey(apiKey);
        expect((await onFirst.get(ORDERS)).status).toBe(401);
        await eventually(
          () => onSecond.get(ORDERS),
          (response) => response.status === 401,
          { timeoutMs: REVOCATION_BOUND_MS },
        );
      } finally {
        await second.stop();
      }
    },
  );

  it('answers a 64 KiB header with 431 in the envelope', async () => {
    const response = await deployment.client.request('GET', ORDERS, undefined, {
      'x-padding': 'a'.repeat(64 * 1024),
    });
    expect(response.status).toBe(431);
    expect(response.body).toEqual({
      code: 431,
      message: expect.stringMatching(/header fields too large/i),
      data: null,
    });
    // The platform goes on answering.
    expect((await deployment.client.get(ORDERS)).status).toBe(200);
  });

  // Last of this deployment's cases: it revokes the deployment's own admin key.
  it('keeps one admin key when every admin key is revoked at once', async () => {
    let kept = deployment.adminKey;
    // Rounds, for the revocations to meet: each key revokes itself, all at once.
    for (let round = 0; round < 5; round++) {
      const admin = deployment.admin.client.withKey(kept);
      const issued = await Promise.all(
        [1, 2, 3].map(
          async () =>
            (await admin.post<IssuedApiKeyView>(`${ADMIN_PATH}/key`, { role: 'admin' })).body.data!
              .api_key,
        ),
      );
      const keys = [kept, ...issued];
      const answers = await Promise.all(
        keys.map((key) => admin.withKey(key).post(`${ADMIN_PATH}/key/revoke`, { api_key: key })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 409]);
      kept = keys[answers.findIndex((answer) => answer.status === 409)];
      const listed = await admin.withKey(kept).get<ApiKeyPageView>(`${ADMIN_PATH}/key?size=100`);
      const valid = listed.body.data!.list.filter(
        (key) => key.role === 'admin' && !key.revoked_time,
      );
      expect(valid).toHaveLength(1);
    }
  });
});

describe('standalone on the embedded database: one process owns it', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startStandalone({ embedded: true });
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  it('refuses the admin command on the live folder, changing nothing, and points to --url', async () => {
    const dataDir = deployment.env.DATA_DIR;
    const before = readdirSync(dataDir).sort();
    const refused = await runAdminCli({ DATA_DIR: dataDir }, ['key', 'create', '--merchant', '1']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/in use by consign \(standalone\) \(pid \d+/);
    expect(refused.stderr).toContain('--url');
    expect(refused.values.get('api_key')).toBeUndefined();
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect(readdirSync(join(dataDir, 'pgdata')).length).toBeGreaterThan(0);

    // A second platform on the same folder stops at once, naming the owner.
    await expect(
      startApp('standalone', { ...deployment.env, PORT: String(await freePort()) }, /never/),
    ).rejects.toThrow(/exited with 3 before it was ready:[\s\S]*in use by consign \(standalone\)/);
    expect(readdirSync(dataDir).sort()).toEqual(before);

    // The platform was not stopped: its keys still work, and the admin API does the job.
    expect((await deployment.client.get(ORDERS)).status).toBe(200);
    const operator = await deployment.createOperatorKey();
    expect((await operator.get(ORDERS)).status).toBe(200);
  });
});
