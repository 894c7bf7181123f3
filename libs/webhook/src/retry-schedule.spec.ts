import { nextAttemptAt, parseRetryAfter, scheduleOf, scheduledDelayMs } from './retry-schedule';

const DEFAULT = { baseMs: 5_000, maxDelayMs: 43_200_000, horizonMs: 3 * 86_400_000 };

describe('the webhook retry schedule', () => {
  it('grows fourfold from 5 s up to 12 h and spans about three days', () => {
    const delays = scheduleOf(DEFAULT).map((ms) => ms / 1000);
    expect(delays).toEqual([5, 20, 80, 320, 1280, 5120, 20480, 43200, 43200, 43200, 43200, 43200]);
    const hours = scheduleOf(DEFAULT).reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(60);
    expect(hours).toBeLessThanOrEqual(72);
  });

  it('jitters each delay within ±20 %', () => {
    const first = new Date('2026-05-01T00:00:00Z');
    const low = nextAttemptAt(DEFAULT, 2, first, first, null, 0)!;
    const high = nextAttemptAt(DEFAULT, 2, first, first, null, 0.999_999)!;
    expect(low.getTime() - first.getTime()).toBe(scheduledDelayMs(DEFAULT, 2) * 0.8);
    expect(high.getTime() - first.getTime()).toBeCloseTo(scheduledDelayMs(DEFAULT, 2) * 1.2, -1);
  });

  it("honours a receiver's longer Retry-After, capped at the longest delay", () => {
    const now = new Date('2026-05-01T00:00:00Z');
    expect(nextAttemptAt(DEFAULT, 1, now, now, 60_000, 0.5)!.getTime() - now.getTime()).toBe(
      60_000,
    );
    expect(
      nextAttemptAt(DEFAULT, 1, now, now, 10 * 86_400_000, 0.5)!.getTime() - now.getTime(),
    ).toBe(DEFAULT.maxDelayMs);
  });

  it('gives up once the next attempt would fall past the horizon from the first attempt', () => {
    const first = new Date('2026-05-01T00:00:00Z');
    const late = new Date(first.getTime() + DEFAULT.horizonMs - 1_000);
    expect(nextAttemptAt(DEFAULT, 12, first, late, null, 0.5)).toBeNull();
    expect(nextAttemptAt(DEFAULT, 1, first, first, null, 0.5)).not.toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores anything else', () => {
    const now = new Date('2026-05-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 01 May 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
