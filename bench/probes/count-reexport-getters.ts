/*
 * A probe for the benchmarks, preloaded into the servers with
 *   --node-flags "--require ./dist/bench/probes/count-reexport-getters.js"
 * It counts the calls of SWC's re-export getters (the `_export_star` helper of every built
 * barrel: `get: function() { return from[k]; }`, a megamorphic keyed load) and the HTTP requests
 * served, and on exit prints the getter calls per request and the names read most (to stderr,
 * which the benchmarks pass through). A name read through two barrels counts twice. The count
 * includes start-up and warm-up; with thousands of requests they are noise. It rewrites the
 * helper as each built file is loaded, so it slows the server down: take no timing from a run
 * with it.
 */
import { subscribe } from 'node:diagnostics_channel';
import Module from 'node:module';

const NAMES = 12;
const GETTER = /get: function\(\) \{\s*return from\[k\];\s*\}/;
const counts = new Map<string, number>();
let requests = 0;

subscribe('http.server.request.start', () => {
  requests++;
});

declare global {
  var countReexportGetter: ((name: string) => void) | undefined;
}
globalThis.countReexportGetter = (name) => counts.set(name, (counts.get(name) ?? 0) + 1);

type Compile = (this: Module, content: string, filename: string) => unknown;
const prototype = Module.prototype as unknown as { _compile: Compile };
const compile = prototype._compile;
prototype._compile = function (content, filename) {
  const counted =
    filename.includes('/dist/') && content.includes('function _export_star')
      ? content.replace(
          GETTER,
          'get: function() { globalThis.countReexportGetter(k); return from[k]; }',
        )
      : content;
  return compile.call(this, counted, filename);
};

process.on('exit', () => {
  if (requests === 0) return;
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const lines = [
    `[count-reexport-getters] pid ${process.pid}: ${total} getter calls, ${requests} requests, ${(total / requests).toFixed(1)} per request`,
  ];
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, NAMES))
    lines.push(`  ${(count / requests).toFixed(1)}/request  ${name}`);
  process.stderr.write(`${lines.join('\n')}\n`);
});
