/*
 * A probe for the benchmarks, preloaded into the servers with
 *   --node-flags "--require ./dist/bench/probes/no-async-context.js"
 * It turns AsyncLocalStorage.run into a plain call, so no async context is ever entered and
 * Node.js 20 installs no promise hooks: what the correlation scope costs per request is the
 * difference from a run without it. Log lines lose their correlation ids; measurement only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

AsyncLocalStorage.prototype.run = function run<R, A extends unknown[]>(
  _store: unknown,
  work: (...args: A) => R,
  ...args: A
): R {
  return work(...args);
};
