/**
 * The CPU a distributed deployment uses while idle: every process of it, the test broker left
 * out. It compares the deployment as built against the same deployment without the kafkajs
 * request-queue fix (libs/bus/src/kafka/kafkajs-request-queue.ts; the baseline has the probe
 * bench/probes/kafkajs-unfixed.ts preloaded). Rounds alternate between the two, and each round
 * has a deployment of its own:
 *
 *   npm run bench:idle [-- --rounds 2 --warmup 10 --duration 10] [--fetch-wait 250]
 *
 * `--fetch-wait <ms>` adds a third deployment, as built but with that KAFKA_FETCH_MAX_WAIT_MS
 * (how long the broker may hold an idle consumer's fetch): the test deployments take 250
 * (MOKAPI_FETCH_MAX_WAIT_MS), the product's default is 1,000.
 *
 * Idle means no request: only what runs by itself, such as consumers' fetches and heartbeats,
 * outbox relays and periodic tasks. The carrier sandbox is off. Start-up is left out: each round
 * measures `--duration` seconds after `--warmup` seconds of being ready. CPU is user + system time
 * from /proc, in % of one core.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startDistributed } from '@consign/testing';
import { argNumber, argText, median } from './bench-args';
import { cpuMicros } from './process-cpu';

const UNFIXED_PROBE = resolve(__dirname, 'probes', 'kafkajs-unfixed.js');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** One round: each process's share of a core over `duration` seconds, by name. */
async function round(env: Record<string, string>, warmup: number, duration: number) {
  const deployment = await startDistributed({ env: { CARRIER_SANDBOX: 'off', ...env } });
  try {
    await sleep(warmup * 1000);
    const processes = await deployment.processHealth!();
    const before = processes.map((p) => cpuMicros(p.pid) ?? NaN);
    await sleep(duration * 1000);
    const shares = new Map<string, number>();
    processes.forEach((p, i) => {
      const used = (cpuMicros(p.pid) ?? NaN) - before[i];
      shares.set(p.name, (shares.get(p.name) ?? 0) + (100 * used) / (duration * 1e6));
    });
    return shares;
  } finally {
    await deployment.stop();
  }
}

async function main(): Promise<void> {
  const rounds = argNumber('rounds', 2);
  const warmup = argNumber('warmup', 10);
  const duration = argNumber('duration', 10);
  process.stdout.write(
    `idle distributed deployment: ${rounds} round(s) each, ${warmup} s settled, then ${duration} s measured, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const variants: { name: string; env: Record<string, string> }[] = [
    { name: 'as built', env: {} },
    { name: 'kafkajs unfixed', env: { NODE_OPTIONS: `--require ${UNFIXED_PROBE}` } },
  ];
  const fetchWait = argText('fetch-wait', '');
  if (fetchWait)
    variants.push({
      name: `fetch wait ${fetchWait} ms`,
      env: { KAFKA_FETCH_MAX_WAIT_MS: fetchWait },
    });
  const results = new Map<string, Map<string, number>[]>(variants.map((v) => [v.name, []]));
  for (let i = 0; i < rounds; i++) {
    // Every other round the other one first, so that drift on a shared machine hits both alike.
    for (const variant of i % 2 ? [...variants].reverse() : variants) {
      const shares = await round(variant.env, warmup, duration);
      results.get(variant.name)!.push(shares);
      const total = [...shares.values()].reduce((sum, share) => sum + share, 0);
      process.stdout.write(`round ${i + 1}, ${variant.name}: ${total.toFixed(1)} % of a core\n`);
    }
  }
  const names = [...results.get(variants[0].name)![0].keys()];
  process.stdout.write(`\n| process | ${variants.map((v) => v.name).join(' | ')} |\n`);
  process.stdout.write(`| --- | ${variants.map(() => '---:').join(' | ')} |\n`);
  for (const name of [...names, 'total'])
    process.stdout.write(
      `| ${name} | ${variants
        .map((v) => {
          const perRound = results
            .get(v.name)!
            .map((shares) =>
              name === 'total'
                ? [...shares.values()].reduce((sum, share) => sum + share, 0)
                : (shares.get(name) ?? NaN),
            );
          return `${median(perRound).toFixed(1)} %`;
        })
        .join(' | ')} |\n`,
    );
  process.stdout.write(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
