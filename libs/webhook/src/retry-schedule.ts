/**
 * When a failed delivery is tried again. The delays grow fourfold from `baseMs` (5 s, 20 s,
 * 80 s, 5 min, 21 min, 85 min, 5.7 h, then every 12 h by default), each with ±20 % jitter so that
 * the deliveries of one outage do not return at one instant, and a receiver's `Retry-After` is
 * honoured when it asks for longer. Retries stop once `horizonMs` (3 days) has passed since the
 * first attempt: the delivery failed.
 */
export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  horizonMs: number;
}

export const RETRY_GROWTH = 4;
export const RETRY_JITTER = 0.2;

/** The delay before attempt `attempt + 1`, before jitter and Retry-After. */
export function scheduledDelayMs(policy: RetryPolicy, attempt: number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(policy.maxDelayMs, policy.baseMs * RETRY_GROWTH ** exponent);
}

/**
 * The next attempt's time after failed attempt number `attempt` (1-based), or null when the
 * schedule is spent. `random` is in [0, 1); `retryAfterMs` is the receiver's ask, if any.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  attempt: number,
  firstAttemptAt: Date,
  now: Date,
  retryAfterMs: number | null,
  random: number = Math.random(),
): Date | null {
  const jittered =
    scheduledDelayMs(policy, attempt) * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random);
  const delay = Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
  const next = now.getTime() + Math.round(delay);
  if (next - firstAttemptAt.getTime() > policy.horizonMs) return null;
  return new Date(next);
}

/**
 * `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date; null when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}

/** The documented schedule: the delays (ms, before jitter) until the horizon is spent. */
export function scheduleOf(policy: RetryPolicy): number[] {
  const delays: number[] = [];
  let elapsed = 0;
  for (let attempt = 1; ; attempt++) {
    const delay = scheduledDelayMs(policy, attempt);
    if (elapsed + delay > policy.horizonMs) return delays;
    delays.push(delay);
    elapsed += delay;
  }
}
