/*
 * A probe for the benchmarks, preloaded into the servers with
 *   --node-flags "--require ./dist/bench/probes/allocations.js"
 * From the HTTP request number ALLOCATIONS_AFTER (default 5,000: past start-up and the warm-up)
 * it samples what the process allocates, garbage included (V8's sampling heap profiler, keeping
 * the objects the minor and major GCs collected), and when the process is told to stop (SIGTERM,
 * as the benchmarks stop their servers) it prints the bytes allocated per request and the
 * functions that allocated most of them, by their own allocations and with their callees (to
 * stderr, which the benchmarks pass through). Allocation drives the garbage collector's work,
 * on the main thread and on V8's helper threads. Sampling slows the server down a little: take
 * no timing from a run with it.
 */
import { Session } from 'node:inspector';
import { subscribe } from 'node:diagnostics_channel';

const AFTER = Number(process.env.ALLOCATIONS_AFTER ?? 5000);
const TOP = 15;

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const session = new Session();
let requests = 0;
let sampledFrom: number | undefined;

subscribe('http.server.request.start', () => {
  requests++;
  if (requests !== AFTER) return;
  session.connect();
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  sampledFrom = requests;
});

/** A function as the listing names it: name, then the file under node_modules or dist. */
function nameOf({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const file = url.replace(/^.*\/(?:node_modules|dist)\//, '');
  return `${functionName || '(anonymous)'} ${file || '(native)'}:${lineNumber + 1}`;
}

function summarize(root: ProfileNode, served: number): string {
  const own = new Map<string, number>();
  const withCallees = new Map<string, number>();
  const walk = (node: ProfileNode, stack: Set<string>) => {
    const name = nameOf(node.callFrame);
    own.set(name, (own.get(name) ?? 0) + node.selfSize);
    const below = stack.has(name) ? stack : new Set([...stack, name]);
    for (const caller of below)
      withCallees.set(caller, (withCallees.get(caller) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, below);
  };
  walk(root, new Set());
  withCallees.delete(nameOf(root.callFrame));
  let total = 0;
  for (const bytes of own.values()) total += bytes;
  const top = (sizes: Map<string, number>) =>
    [...sizes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, bytes]) => `  ${(bytes / served).toFixed(0).padStart(7)} B  ${name}`);
  return [
    `[allocations] pid ${process.pid}: ${(total / served).toFixed(0)} B allocated per request over ${served} requests`,
    'by own allocations:',
    ...top(own),
    'with their callees:',
    ...top(withCallees),
    '',
  ].join('\n');
}

process.once('SIGTERM', () => {
  if (sampledFrom === undefined) return;
  const served = requests - sampledFrom;
  // A session on the main thread answers at once: the callback runs before post returns.
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) process.stderr.write(`[allocations] ${error.message}\n`);
    else if (served > 0)
      process.stderr.write(summarize(result.profile.head as unknown as ProfileNode, served));
  });
});
