/*
 * A probe for the idle-CPU benchmark (bench/idle-cpu.bench.ts), preloaded into every process of
 * its baseline deployment with
 *   NODE_OPTIONS="--require <repo>/dist/bench/probes/kafkajs-unfixed.js"
 * It marks kafkajs' request queue as already fixed before the bus loads, so fixKafkajsRequestQueue
 * (libs/bus/src/kafka/kafkajs-request-queue.ts) leaves kafkajs 2.2.4 as it ships: one run then
 * measures the deployment with the fix against the same deployment without it.
 *
 * For benchmarks only.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as {
  prototype: Record<symbol, unknown>;
};
RequestQueue.prototype[Symbol.for('consign.kafkajs.requestQueueFixed')] = true;
