import { randomUUID } from 'node:crypto';
import {
  ApiClient,
  ApiResponse,
  Deployment,
  aLabel,
  aProduct,
  aVariant,
  anInbound,
  anOrder,
  eventually,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

/** How long order-service waits, in these deployments, before answering a create it committed. */
const SLOW_CREATE_MS = 3000;
/** The gateway's wait: shorter, so that it answers 504 for an order it created. */
const BUS_TIMEOUT_MS = 2000;

/**
 * Issue 12 (must show 3) and issue 13 (1, 2): every POST that creates or changes something honours
 * Idempotency-Key — the same request answers the first answer again, another request with the key
 * is a 422, a request while the first is in flight a 409 — and a request that timed out (504) and
 * is retried with its key never creates a second record. order-service is made slow to answer its
 * creates (CONSIGN_FAULT_SLOW_COMMAND) so that the gateway gives up on a create it carried out.
 */
describe.each(DEPLOYMENT_MODES)('%s: Idempotency-Key', (_mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;

  beforeAll(async () => {
    deployment = await start({
      env: {
        BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS),
        CONSIGN_FAULT_SLOW_COMMAND: `order.create.v1:${SLOW_CREATE_MS}`,
      },
    });
    api = deployment.client;
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  const post = <T = unknown>(
    client: ApiClient,
    path: string,
    body: unknown,
    key?: string,
  ): Promise<ApiResponse<T>> =>
    client.request<T>(
      'POST',
      path,
      body === undefined ? undefined : JSON.stringify(body),
      key === undefined ? {} : { 'idempotency-key': key },
    );
  const products = async (client: ApiClient) =>
    ((await client.get<unknown[]>('/2025-07/cloud/product/all')).body.data ?? []).length;

  it('answers the same request again with the first answer, and creates nothing more', async () => {
    const merchant = await deployment.createMerchant(`Idempotent ${randomUUID()}`);
    const key = randomUUID();
    const body = aProduct();
    const first = await post<number>(merchant, '/2025-07/cloud/product', body, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same members in another order are the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post<number>(merchant, '/2025-07/cloud/product', reordered, key);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 200,
      body: first.body,
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await products(merchant)).toBe(1);
    // Another merchant's key of the same name is its own.
    const other = await deployment.createMerchant(`Other ${randomUUID()}`);
    const theirs = await post<number>(other, '/2025-07/cloud/product', aProduct(), key);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).not.toBe(first.body.data);
  });

  it('refuses the key for another request (422), and keeps no answer to an invalid request (400)', async () => {
    const merchant = await deployment.createMerchant(`Mismatch ${randomUUID()}`);
    const key = randomUUID();
    expect((await post(merchant, '/2025-07/cloud/product', aProduct(), key)).status).toBe(200);
    const other = await post(merchant, '/2025-07/cloud/product', aProduct(), key);
    expect(other.body).toEqual({
      code: 422,
      message: 'This Idempotency-Key was already used for a different request.',
      data: null,
    });
    expect(other.status).toBe(422);
    expect(await products(merchant)).toBe(1);

    const fixed = randomUUID();
    const invalid = await post(merchant, '/2025-07/cloud/product', { title: 'No currency' }, fixed);
    expect(invalid.status).toBe(400);
    const corrected = await post(merchant, '/2025-07/cloud/product', aProduct(), fixed);
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    expect(await products(merchant)).toBe(2);

    const malformed = await post(merchant, '/2025-07/cloud/product', aProduct(), 'x'.repeat(256));
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('Idempotency-Key');
  });

  it('replays a state change instead of refusing it as a second change', async () => {
    const variant = aVariant();
    const productId = (
      await post<number>(api, '/2025-07/cloud/product', aProduct({ variants: [variant] }))
    ).body.data;
    expect(productId).toEqual(expect.any(Number));
    const inbound = await post<number>(
      api,
      '/2025-07/cloud/inbound',
      anInbound([{ sku_number: String(variant.sku), quantity: 3 }]),
      randomUUID(),
    );
    expect(inbound.status).toBe(200);
    const cancel = `/2025-07/cloud/inbound/${inbound.body.data}/cancel`;
    const key = randomUUID();
    const first = await post<{ status: string }>(api, cancel, undefined, key);
    expect(first.status).toBe(200);
    expect(first.body.data?.status).toBe('Cancelled');
    const retried = await post(api, cancel, undefined, key);
    expect({ status: retried.status, body: retried.body }).toEqual({
      status: 200,
      body: first.body,
    });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    // A new request (a new key) to cancel it again is refused by the state machine, and that
    // refusal is the key's answer: its retry gets it again, marked as replayed.
    const refusedKey = randomUUID();
    const refused = await post(api, cancel, undefined, refusedKey);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    const refusedAgain = await post(api, cancel, undefined, refusedKey);
    expect({ status: refusedAgain.status, body: refusedAgain.body }).toEqual({
      status: 409,
      body: refused.body,
    });
    expect(refusedAgain.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers a retried label void with the label as the void left it', async () => {
    const label = await post<number>(api, '/2026-05/cloud/label', aLabel(), randomUUID());
    expect(label.status).toBe(200);
    const voidPath = `/2026-05/cloud/label/${label.body.data}/void`;
    const key = randomUUID();
    const first = await post<{ status: string }>(api, voidPath, undefined, key);
    expect(first.status).toBe(200);
    expect(first.body.data?.status).toBe('voided');
    const retried = await post(api, voidPath, undefined, key);
    expect({ status: retried.status, body: retried.body }).toEqual({
      status: 200,
      body: first.body,
    });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 409 while the key is in flight; after a 504 the retry returns the one order created', async () => {
    const merchant = await deployment.createMerchant(`Timeout ${randomUUID()}`);
    const key = randomUUID();
    const body = anOrder([{ sku_number: 'NO-SUCH-SKU', quantity: 1 }], {
      reference: `PO-${randomUUID().slice(0, 8)}`,
    });
    const first = post<number>(merchant, '/2025-07/cloud/order', body, key);
    // The second copy arrives while the first waits for order-service.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = post<number>(merchant, '/2025-07/cloud/order', body, key);
    const statuses = (await Promise.all([first, second])).map((r) => r.status).sort();
    // order-service created the order but answered after the gateway gave up: a 504.
    expect(statuses).toEqual([409, 504]);

    // The client retries with the key until it gets an answer (409 while a retry is in flight).
    const retried = await eventually(
      () => post<number>(merchant, '/2025-07/cloud/order', body, key),
      (r) => r.status !== 409 && r.status !== 504,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(retried.status).toBe(200);
    const orderId = retried.body.data;
    const orders = await merchant.get<{ total: number; list: { id: number }[] }>(
      '/2025-07/cloud/order',
    );
    expect(orders.body.data).toMatchObject({ total: 1, list: [{ id: orderId }] });
    const replayed = await post<number>(merchant, '/2025-07/cloud/order', body, key);
    expect(replayed.body.data).toBe(orderId);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  });

  const itDistributed = _mode === 'distributed' ? it : it.skip;

  // Skipped in the standalone modes: they run one gateway process (a restart is a new process
  // on the same data, which this covers too: the record is the service's, not the gateway's).
  itDistributed(
    'honours a key across gateway processes: one order for concurrent copies, the answer on either',
    async () => {
      if (!deployment.startGateway) throw new Error('a distributed deployment starts gateways');
      const second = await deployment.startGateway();
      try {
        const { apiKey } = await deployment.admin.createMerchant(`Two gateways ${randomUUID()}`);
        const onFirst = deployment.client.withKey(apiKey);
        const onSecond = second.client.withKey(apiKey);
        const body = aProduct();
        const key = randomUUID();
        const created = await post<number>(onFirst, '/2025-07/cloud/product', body, key);
        expect(created.status).toBe(200);
        const replayed = await post<number>(onSecond, '/2025-07/cloud/product', body, key);
        expect({ status: replayed.status, body: replayed.body }).toEqual({
          status: 200,
          body: created.body,
        });
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        const refused = await post(onSecond, '/2025-07/cloud/product', aProduct(), key);
        expect(refused.status).toBe(422);

        // The same create sent at once through both gateways, each retried until answered.
        const order = anOrder([{ sku_number: 'NO-SUCH-SKU', quantity: 1 }], {
          reference: `PO-${randomUUID().slice(0, 8)}`,
        });
        const orderKey = randomUUID();
        const answered = (client: ApiClient) =>
          eventually(
            () => post<number>(client, '/2025-07/cloud/order', order, orderKey),
            (r) => r.status !== 409 && r.status !== 504,
            { timeoutMs: 30_000, intervalMs: 250 },
          );
        const [a, b] = await Promise.all([answered(onFirst), answered(onSecond)]);
        expect([a.status, b.status]).toEqual([200, 200]);
        expect(b.body.data).toBe(a.body.data);
        const orders = await onFirst.get<{ total: number }>('/2025-07/cloud/order');
        expect(orders.body.data?.total).toBe(1);
        expect(await products(onFirst)).toBe(1);
      } finally {
        await second.stop();
      }
    },
  );
});
