/*
 * Sums a `perf record -g` profile of a Node.js server (as `perf script` prints it) by where the
 * CPU went, without the slowdown of V8's own profiler: by binary (the kernel, node itself, the
 * JavaScript V8 compiled, the C library), by function (self), and the inclusive share of named
 * parts of the request path. The calculate/order benchmark makes such profiles with `--perf
 * <dir>` and prints this summary; for a profile of your own:
 *
 *   node --perf-prof --perf-prof-path=<dir> --interpreted-frames-native-stack \
 *     dist/apps/standalone/src/main.js                  # a jitdump: the JavaScript frames' names
 *   perf record -k mono -F 4999 -g -p <pid> -o gw.data -- sleep 10            # under load
 *   perf inject --jit -i gw.data -o gw.jit.data
 *   perf script -i gw.jit.data | node dist/bench/probes/perf-summary.js [--top 30]
 *        [--frequency 4999 --requests N] [--group 'name=regex' ...]
 *
 * (`--perf-basic-prof` is simpler, but its map file keeps the names of code V8 has since freed,
 * and a long run puts samples on the wrong functions.)
 *
 * --frequency and --requests (the requests served while perf recorded) print µs per request
 * beside each share. --group adds a part (a regex on the frame names perf prints) to the default
 * ones, which are the gateway's.
 */
import { readFileSync } from 'node:fs';
import { argNumber, argTexts } from '../bench-args';

/** The parts of the gateway's calculate/order path, by the frames that are theirs. */
export const GATEWAY_PARTS: [string, RegExp][] = [
  ['rating: the handler (its validation of the command and the pricing)', /rating\.handlers\.js/],
  ['of which the pricing', /libs\/rating\/src\/pricing\//],
  ['validation (the gateway and the handler: compiled plans)', /compiled-validation\.js/],
  ['the bus request (in-process, around the handler)', /in-process-broker\.js/],
  ['of which the JSON copies of command and reply', /json-copy\.js/],
  ['observability (correlation, traces, metrics)', /libs\/observability\//],
  ['the hostile-input walk of the body', /hostileInputProblems/],
  ['SHA-256 of the API key', /hashApiKey|crypto::Hash/],
  ['JSON.parse', /JsonParser/],
  ['JSON.stringify', /JsonStringifier|Builtins_JsonStringify/],
  ['the socket write (kernel included)', /StreamBase::WriteString|writeUtf8String/],
  ['garbage collection', /Scavenge|MarkCompact|Heap::CollectGarbage|ConcurrentMarking|Sweeper/],
];

interface Sample {
  /** Innermost first: [symbol, binary]. */
  frames: [string, string][];
}

/** The samples of `perf script` output: a header line, then one indented line per frame. */
export function parsePerfScript(text: string): Sample[] {
  const samples: Sample[] = [];
  let current: Sample | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (current) samples.push(current);
      current = undefined;
    } else if (!/^\s/.test(line)) current = { frames: [] };
    else if (current) {
      // "    7fc89c519db9 JS:*'handleWriteReq node:internal/...:46:24+0xf9 (/tmp/perf-4736.map)"
      const match = /^\s*[0-9a-f]+\s+(.*?)(?:\+0x[0-9a-f]+)?\s+\(([^)]*)\)\s*$/.exec(line);
      if (match) current.frames.push([match[1], match[2]]);
    }
  }
  if (current) samples.push(current);
  return samples.filter((sample) => sample.frames.length > 0);
}

/** Whether a frame's binary is the kernel's (`[kernel.kallsyms]`). */
const isKernel = (binary: string): boolean => binary.includes('kernel');

/** The kind of code a frame's binary holds. */
export function binaryKind(binary: string): string {
  if (isKernel(binary)) return 'kernel (system calls, the network stack, the VM)';
  // perf-<pid>.map (--perf-basic-prof), jitted-<pid>-<n>.so (--perf-prof, after perf inject).
  if (/perf-\d+\.map$|jitted-\d+-\d+\.so$/.test(binary) || binary === '[unknown]')
    return 'code V8 generated: JavaScript (and, from a jitdump, its builtins)';
  if (/\/node$/.test(binary)) return 'node itself: V8 runtime, builtins, GC, libuv';
  if (/libc\.so|libstdc\+\+|libm\.so/.test(binary)) return 'the C and C++ libraries';
  return binary;
}

const JS_FRAME = /^JS:\S*\s(\S*):\d+:\d+$/;

/**
 * The file of a JavaScript frame ("JS:*'name /app/dist/libs/x.js:3:26"), relative to dist/ or
 * node_modules/; undefined for any other frame.
 */
export function fileOf(symbol: string): string | undefined {
  const match = JS_FRAME.exec(symbol);
  if (!match) return undefined;
  if (match[1] === '') return '(code made at run time: new Function)';
  return match[1].replace(/^.*\/node_modules\//, '').replace(/^.*\/dist\//, '');
}

/**
 * Where a sample's CPU belongs among the files: its innermost JavaScript frame's file, with the
 * builtins, runtime and kernel code it called (the kernel's apart: its cost depends on the rate).
 */
function ownerOf(frames: [string, string][]): string {
  const file = frames.map(([symbol]) => fileOf(symbol)).find((found) => found !== undefined);
  const kernel = isKernel(frames[0][1]) ? ', in the kernel' : '';
  return `${file ?? '(no JavaScript frame: GC, the event loop)'}${kernel}`;
}

export function summarize(
  samples: Sample[],
  {
    top = 30,
    perRequest,
    parts = GATEWAY_PARTS,
  }: {
    top?: number;
    /** µs of CPU one sample stands for, divided by the requests: a sample's µs per request. */
    perRequest?: number;
    parts?: [string, RegExp][];
  },
): string {
  const total = samples.length;
  const share = (count: number) =>
    `${((100 * count) / total).toFixed(1).padStart(5)} %` +
    (perRequest ? `  ${(count * perRequest).toFixed(1).padStart(6)} µs/req` : '');
  const byBinary = new Map<string, number>();
  const bySymbol = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const { frames } of samples) {
    const [symbol, binary] = frames[0];
    const kind = binaryKind(binary);
    byBinary.set(kind, (byBinary.get(kind) ?? 0) + 1);
    bySymbol.set(symbol, (bySymbol.get(symbol) ?? 0) + 1);
    const owner = ownerOf(frames);
    byFile.set(owner, (byFile.get(owner) ?? 0) + 1);
  }
  const sorted = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1]);
  const lines = [
    `${total} samples` + (perRequest ? `, ${(total * perRequest).toFixed(1)} µs a request` : ''),
    '',
    'by binary (self)',
    ...sorted(byBinary).map(([kind, count]) => `${share(count)}  ${kind}`),
    '',
    'parts of the request path (inclusive: a sample counts once for each part on its stack)',
    ...parts.map(([name, pattern]) => {
      const count = samples.filter(({ frames }) =>
        frames.some(([symbol]) => pattern.test(symbol)),
      ).length;
      return `${share(count)}  ${name}`;
    }),
    '',
    `by JavaScript file (the innermost one on the stack, with the code it called), top ${top}`,
    ...sorted(byFile)
      .slice(0, top)
      .map(([file, count]) => `${share(count)}  ${file}`),
    '',
    `by function (self), top ${top}`,
    ...sorted(bySymbol)
      .slice(0, top)
      .map(([symbol, count]) => `${share(count)}  ${symbol}`),
  ];
  return lines.join('\n') + '\n';
}

function main(): void {
  const file = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 0;
  const samples = parsePerfScript(readFileSync(file, 'utf8'));
  const frequency = argNumber('frequency', 0);
  const requests = argNumber('requests', 0);
  const extra = argTexts('group').map((group): [string, RegExp] => {
    const at = group.indexOf('=');
    return [group.slice(0, at), new RegExp(group.slice(at + 1))];
  });
  process.stdout.write(
    summarize(samples, {
      top: argNumber('top', 30),
      perRequest: frequency && requests ? 1e6 / frequency / requests : undefined,
      parts: [...GATEWAY_PARTS, ...extra],
    }),
  );
}

if (require.main === module) main();
