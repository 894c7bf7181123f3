import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { ApiClient, Deployment, startStandalone } from '@consign/testing';

/** The Redis these machines run (.ci/run starts it when it is installed and down). */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MAX = 6;

/**
 * The rate limit across gateway processes: two gateways with REDIS_URL draw on one allowance per
 * API key; a third without it counts in its own memory. Each is a standalone process with its own
 * database, started with the same bootstrap API key, so the only thing they share is Redis.
 */
describe('rate limit shared across gateway processes through Redis', () => {
  // A key of this run only: its counter in Redis is nobody else's.
  const apiKey = `csk_e2e_${randomBytes(12).toString('hex')}`;
  const gateways: Deployment[] = [];
  let [first, second, alone]: ApiClient[] = [];

  beforeAll(async () => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await probe.connect();
      await probe.ping();
    } catch (error) {
      throw new Error(
        `Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL, or install and start the Debian package redis-server): ${(error as Error).message}`,
      );
    } finally {
      probe.disconnect();
    }
    const env = {
      BOOTSTRAP_API_KEY: apiKey,
      RATE_LIMIT_MAX: String(MAX),
      RATE_LIMIT_WINDOW_MS: '600000',
    };
    const started = await Promise.all([
      startStandalone({ env: { ...env, REDIS_URL } }),
      startStandalone({ env: { ...env, REDIS_URL } }),
      startStandalone({ env }),
    ]);
    gateways.push(...started);
    [first, second, alone] = started.map((g) => g.client.withKey(apiKey));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
  });

  const statusOf = async (client: ApiClient) =>
    (await client.get('/2025-07/cloud/product/all')).status;

  it('answers 429 from either gateway once the key used up the allowance through both', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MAX; i++) statuses.push(await statusOf(i % 2 === 0 ? first : second));
    expect(statuses).toEqual(Array(MAX).fill(200));
    // Each gateway served only half of the limit itself: a per-process count would still allow.
    const limited = await first.get('/2025-07/cloud/product/all');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 429, data: null });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await statusOf(second)).toBe(429);
  });

  it('counts in the process when REDIS_URL is unset: the third gateway still serves the key', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MAX; i++) statuses.push(await statusOf(alone));
    expect(statuses).toEqual(Array(MAX).fill(200));
    expect(await statusOf(alone)).toBe(429);
  });
});
