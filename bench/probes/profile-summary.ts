/*
 * Sums a V8 .cpuprofile (`node --cpu-prof`) by self time, per function and per module, over a
 * time window, so a profile of a benchmark's load can be read without a viewer and two
 * profiles compared by their figures:
 *
 *   node dist/bench/probes/profile-summary.js <file.cpuprofile> [--from S] [--to S] [--top N]
 *        [--requests N]
 *
 * --from/--to: seconds since the profile started (the load window; start-up is left out);
 * --last S: the last S seconds instead (a benchmark's last round, just before it stops the app).
 * The busy share of each second is printed first, to find the window.
 * --requests: the number of requests served in the window, to print µs per request.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
}

/** The module a frame belongs to: an npm package, a folder of ours, a Node.js internal or V8. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  const ours = /dist\/((?:libs|apps|bench)\/[^/]+(?:\/src\/[^/]+)?)/.exec(url);
  return ours ? ours[1] : url;
}

function main(): void {
  const file = process.argv[2];
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const length = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const last = option('last');
  const from = last ? length - Number(last) * 1e6 : Number(option('from') ?? 0) * 1e6;
  const to = last ? length : Number(option('to') ?? Infinity) * 1e6;
  const top = Number(option('top') ?? 40);
  const requests = Number(option('requests') ?? 0);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let at = 0;
  let total = 0;
  const busyBySecond: number[] = [];
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i];
    at += delta;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    const second = Math.floor(at / 1e6);
    busyBySecond[second] = (busyBySecond[second] ?? 0) + delta;
    if (at < from || at > to) continue;
    total += delta;
    const module = moduleOf(url, functionName);
    const name = `${functionName || '(anonymous)'} ${module}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
    byModule.set(module, (byModule.get(module) ?? 0) + delta);
  }
  const print = (title: string, entries: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      const perRequest = requests ? `  ${(micros / requests).toFixed(2).padStart(7)} µs/req` : '';
      process.stdout.write(
        `${((100 * micros) / total).toFixed(1).padStart(5)} %${perRequest}  ${name}\n`,
      );
    }
  };
  process.stdout.write(
    `busy per second: ${Array.from(busyBySecond, (busy) => Math.round((busy ?? 0) / 1e4)).join(' ')} %\n`,
  );
  process.stdout.write(
    `${file}: ${(total / 1e6).toFixed(2)} s busy in the window` +
      (requests ? `, ${(total / requests).toFixed(1)} µs per request` : '') +
      '\n',
  );
  print('by module (self time)', byModule);
  print('by function (self time)', byFunction);
}

main();
