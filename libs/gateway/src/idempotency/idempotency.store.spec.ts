import { DatabaseHost, TestDatabase, createTestDatabase, loadConfig } from '@consign/platform';
import { DataSource } from 'typeorm';
import { gatewayDatabase } from '../auth/gateway.database';
import { isValidIdempotencyKey } from './idempotency.hooks';
import {
  HeldKey,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_LOCK_GRACE_MS,
  IdempotencyStore,
  finishOf,
} from './idempotency.store';

describe('which answers an Idempotency-Key keeps', () => {
  it('keeps successes and refusals, forgets invalid requests, releases unknown outcomes', () => {
    const body = '{"code":200,"message":"success","data":1}';
    expect(finishOf(200, body)).toEqual({ kind: 'completed', status: 200, body });
    expect(finishOf(404, body)).toEqual({ kind: 'completed', status: 404, body });
    expect(finishOf(409, body)).toEqual({ kind: 'completed', status: 409, body });
    expect(finishOf(422, body)).toEqual({ kind: 'completed', status: 422, body });
    expect(finishOf(400, body)).toEqual({ kind: 'forgotten' });
    expect(finishOf(500, body)).toEqual({ kind: 'released' });
    expect(finishOf(503, body)).toEqual({ kind: 'released' });
    expect(finishOf(504, body)).toEqual({ kind: 'released' });
    expect(finishOf(200, Buffer.from(body))).toEqual({ kind: 'released' });
  });

  it('takes 1 to 255 printable ASCII characters as a key', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('order 2026-05-01 #17 ~!')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('x'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey('tab\there')).toBe(false);
    expect(isValidIdempotencyKey('ключ')).toBe(false);
    expect(isValidIdempotencyKey(['a', 'b'])).toBe(false);
  });
});

describe('IdempotencyStore', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let store: IdempotencyStore;
  let now = Date.parse('2026-05-01T08:00:00.000Z');
  let merchant = 10;
  const request = (key = 'k-1', fingerprint = 'a'.repeat(64)) => ({
    merchantId: merchant,
    key,
    fingerprint,
  });
  const held = async (key?: string, fingerprint?: string): Promise<HeldKey> => {
    const outcome = await store.claim(request(key, fingerprint));
    if (outcome.kind !== 'held') throw new Error(`not held: ${outcome.kind}`);
    return outcome.held;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(gatewayDatabase.options);
    store = new IdempotencyStore(dataSource, loadConfig({ BUS_TIMEOUT_MS: '1000' }));
    store.now = () => now;
  });

  beforeEach(() => {
    merchant++;
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('holds a new key with a command id and a deadline of now + the bus timeout', async () => {
    const first = await held();
    expect(first.commandId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.deadline).toBe(now + 1000);
    const [row] = await dataSource.query(
      `SELECT state, locked_until, expires_at FROM gateway.idempotency_key WHERE merchant_id = $1`,
      [merchant],
    );
    expect(row).toEqual({
      state: 'in_flight',
      locked_until: new Date(now + 1000 + IDEMPOTENCY_LOCK_GRACE_MS),
      expires_at: new Date(now + IDEMPOTENCY_KEY_TTL_MS),
    });
  });

  it('answers 409 while the key is held, the same answer once completed, 422 for another request', async () => {
    const first = await held();
    await expect(store.claim(request())).resolves.toEqual({ kind: 'in_flight' });
    await store.finish(first, { kind: 'completed', status: 200, body: '{"data":1}' });
    await expect(store.claim(request())).resolves.toEqual({
      kind: 'replay',
      status: 200,
      body: '{"data":1}',
    });
    await expect(store.claim(request('k-1', 'b'.repeat(64)))).resolves.toEqual({
      kind: 'mismatch',
    });
    // Another merchant's key of the same name is another key.
    merchant++;
    await expect(store.claim(request())).resolves.toMatchObject({ kind: 'held' });
  });

  it('gives a released key (a 5xx) to the retry with the same command id, not to another request', async () => {
    const first = await held();
    await store.finish(first, { kind: 'released' });
    await expect(store.claim(request('k-1', 'b'.repeat(64)))).resolves.toEqual({
      kind: 'mismatch',
    });
    const retry = await held();
    expect(retry.commandId).toBe(first.commandId);
    expect(retry.token).not.toBe(first.token);
    // The first holder's late answer no longer writes over the retry's record.
    await store.finish(first, { kind: 'completed', status: 200, body: 'late' });
    await expect(store.claim(request())).resolves.toEqual({ kind: 'in_flight' });
  });

  it('frees a key held by a gateway that died once its hold ends (deadline + grace)', async () => {
    const first = await held();
    now += 1000 + IDEMPOTENCY_LOCK_GRACE_MS - 1;
    await expect(store.claim(request())).resolves.toEqual({ kind: 'in_flight' });
    now += 1;
    const taken = await held();
    expect(taken.commandId).toBe(first.commandId);
  });

  it('forgets a key whose request was invalid (400): it may be used for a corrected request', async () => {
    const first = await held();
    await store.finish(first, { kind: 'forgotten' });
    await expect(store.claim(request('k-1', 'b'.repeat(64)))).resolves.toMatchObject({
      kind: 'held',
    });
  });

  it('claims concurrent keys in one statement: each new key held, a key claimed twice held once', async () => {
    const outcomes = await Promise.all([
      store.claim(request('k-1')),
      store.claim(request('k-2')),
      store.claim(request('k-1')),
      store.claim(request('k-3', 'b'.repeat(64))),
      store.claim(request('k-1', 'b'.repeat(64))),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'held',
      'held',
      'in_flight',
      'held',
      'mismatch',
    ]);
    const held = outcomes.flatMap((outcome) => (outcome.kind === 'held' ? [outcome.held] : []));
    expect(new Set(held.map((key) => key.commandId)).size).toBe(3);
    // Their answers, written together, each to its own key.
    await Promise.all(
      held.map((key, i) =>
        store.finish(key, { kind: 'completed', status: 200, body: `{"data":${i}}` }),
      ),
    );
    await expect(
      Promise.all([
        store.claim(request('k-1')),
        store.claim(request('k-2')),
        store.claim(request('k-3', 'b'.repeat(64))),
      ]),
    ).resolves.toEqual(
      [0, 1, 2].map((i) => ({ kind: 'replay', status: 200, body: `{"data":${i}}` })),
    );
  });

  it("writes claims and other keys' answers in one statement; a key claimed while its answer is written is answered from it", async () => {
    const first = await held('k-1');
    const second = await held('k-2');
    const query = jest.spyOn(dataSource, 'query');
    try {
      const [, claimed, , again] = await Promise.all([
        store.finish(first, { kind: 'completed', status: 200, body: '{"data":1}' }),
        store.claim(request('k-3')),
        store.finish(second, { kind: 'completed', status: 201, body: '{"data":2}' }),
        store.claim(request('k-2')),
      ]);
      expect(claimed.kind).toBe('held');
      // k-2's claim waited for the statement that wrote k-2's answer, and replays it.
      expect(again).toEqual({ kind: 'replay', status: 201, body: '{"data":2}' });
      const writes = query.mock.calls.filter(([sql]) => /INSERT|UPDATE/.test(String(sql)));
      // k-1's and k-2's answers with k-3's claim, then k-2's claim.
      expect(writes).toHaveLength(2);
      expect(String(writes[0][0])).toMatch(/^WITH completed AS \(UPDATE[\s\S]*claimed AS \(INSERT/);
    } finally {
      query.mockRestore();
    }
    await expect(store.claim(request('k-1'))).resolves.toEqual({
      kind: 'replay',
      status: 200,
      body: '{"data":1}',
    });
  });

  it('treats an expired key as new (a new command id), and sweeps expired keys', async () => {
    const first = await held();
    await store.finish(first, { kind: 'completed', status: 200, body: '{}' });
    now += IDEMPOTENCY_KEY_TTL_MS;
    const again = await held('k-1', 'b'.repeat(64));
    expect(again.commandId).not.toBe(first.commandId);
    await held('k-2');
    now += IDEMPOTENCY_KEY_TTL_MS;
    expect(await store.sweep()).toBeGreaterThanOrEqual(2);
    const left = await dataSource.query(
      `SELECT count(*) AS n FROM gateway.idempotency_key WHERE merchant_id = $1`,
      [merchant],
    );
    expect(Number(left[0].n)).toBe(0);
  });
});
