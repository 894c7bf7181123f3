/**
 * A fix of kafkajs 2.2.4, its last release, applied where the bus builds its Kafka options.
 *
 * Every broker connection has a request queue. Each time the queue checks its pending requests,
 * it schedules the next check at `throttledUntil - Date.now()`. With no client-side throttle,
 * `throttledUntil` is -1, so the delay is minus the epoch, and Node runs it after 1 ms. The result:
 * every connection of every process wakes about a thousand times a second for nothing
 * (kafkajs#1704), and Node 24 prints a TimeoutNegativeWarning at start (kafkajs#1751).
 *
 * An idle distributed deployment on the test broker, on Node 24, used 67 % of a core with the
 * loop and 55 % without (`npm run bench:idle`, docs/benchmarks.md).
 *
 * This is the fix proposed upstream (kafkajs PR #1768): with nothing pending and no throttle to
 * wait out, schedule nothing. Nothing is missed. A request that cannot go at once is queued by
 * `push`, which schedules a check itself. Every completed request checks the queue again.
 */
export interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** The version whose request queue this fixes: an upgrade must look again (see the spec). */
export const KAFKAJS_FIXED_VERSION = '2.2.4';

/** kafkajs' check interval while requests wait and no throttle is set (its own constant). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

const FIXED = Symbol.for('consign.kafkajs.requestQueueFixed');

/** Applies the fix once per process; later calls do nothing. */
export function fixKafkajsRequestQueue(): void {
  // kafkajs has no types for its internals and no `exports` map: the module is its source file.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as {
    prototype: RequestQueueInternals & { [FIXED]?: true };
  };
  const prototype = RequestQueue.prototype;
  if (prototype[FIXED]) return;
  prototype[FIXED] = true;
  prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals): void {
    if (this.throttleCheckTimeoutId) return;
    let delay = this.throttledUntil - Date.now();
    if (this.pending.length > 0) {
      if (delay <= 0) delay = CHECK_PENDING_REQUESTS_INTERVAL;
    } else if (delay <= 0) {
      return;
    }
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, delay);
  };
}
