/*
 * A probe for the benchmarks, preloaded into the servers with
 *   --node-flags "--require ./dist/bench/probes/count-promises.js"
 * It counts the promises created and the HTTP requests served, and on exit prints the promises
 * per request and the call sites that created most of them (to stderr, which the benchmarks
 * pass through). The count includes start-up and warm-up; with thousands of requests they are
 * noise. It slows the server down: take no timing from a run with it.
 */
import { createHook } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';

const SITES = 15;
let promises = 0;
let requests = 0;
const bySite = new Map<string, number>();

subscribe('http.server.request.start', () => {
  requests++;
});

createHook({
  init(_id, type) {
    if (type !== 'PROMISE') return;
    promises++;
    if (requests === 0 || promises % 16 !== 0) return; // sample one in 16 for the call sites
    const frames = (new Error().stack ?? '')
      .split('\n')
      .slice(2)
      .filter((frame) => !frame.includes('node:internal/async_hooks'))
      .slice(0, 2);
    const site = frames.map((frame) => frame.trim().replace(/\(.*node_modules\//, '(')).join(' < ');
    bySite.set(site, (bySite.get(site) ?? 0) + 16);
  },
}).enable();

process.on('exit', () => {
  if (requests === 0) return;
  const lines = [
    `[count-promises] pid ${process.pid}: ${promises} promises, ${requests} requests, ${(promises / requests).toFixed(1)} per request`,
  ];
  for (const [site, count] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, SITES))
    lines.push(`  ${(count / requests).toFixed(1)}/request  ${site}`);
  process.stderr.write(`${lines.join('\n')}\n`);
});
