/*
 * How often the Mokapi test broker dies of its offset-commit race, by commit pace.
 *
 *   npm run build && node dist/bench/probes/mokapi-commit-race.js [paced|batch] [seconds] [groups]
 *   (PROBE_INTERVAL_MS: the paced interval, default 1000; PROBE_CONCURRENCY: see below;
 *   PROBE_GOMAXPROCS: Mokapi's GOMAXPROCS, default the machine's cores, where the race shows; the
 *   test harness runs it at 1, where it does not)
 *
 * Mokapi 0.52 writes a group's offset map for every partition of an OffsetCommit and starts a
 * goroutine that reads that map without a lock; a read during the next write kills the broker
 * ("fatal error: concurrent map read and map write", processMetricsOffsetCommit). This probe
 * runs `groups` consumer groups (one kafkajs consumer each, as our services do) on a six-partition
 * topic fed as fast as one producer goes, and commits either as kafkajs' auto-commit does, after
 * every fetched batch (`batch`), or through our CommitPacer at BUS_COMMIT_INTERVAL_MS (`paced`,
 * 1000 ms unless PROBE_INTERVAL_MS says otherwise). Whenever the broker dies, everything starts
 * again on a new broker. It prints the commits made, the broker deaths and how many of them were
 * this race. Run it on a busy machine (e.g. beside `node -e "for(;;){}"`): the race needs the
 * goroutine to be scheduled late.
 */
import { availableParallelism } from 'node:os';
import { Logger } from '@nestjs/common';
import { Consumer, Kafka, Producer, logLevel } from 'kafkajs';
import { CommitPacer } from '@consign/bus';
import {
  MOKAPI_FETCH_MAX_WAIT_MS,
  MokapiBroker,
  isMokapiCommitRace,
  startMokapiBroker,
} from '@consign/testing';

const mode = process.argv[2] === 'batch' ? 'batch' : 'paced';
const seconds = Number(process.argv[3] ?? 60);
const groups = Number(process.argv[4] ?? 8);
const intervalMs = Number(process.env['PROBE_INTERVAL_MS'] ?? 1000);
/**
 * Partitions each consumer handles at once (PROBE_CONCURRENCY, default 1). Above 1, kafkajs'
 * auto-commit puts several partitions in one request and sends requests concurrently, as the
 * webhook-dispatcher's and the checkpoint consumer's do.
 */
const concurrency = Number(process.env['PROBE_CONCURRENCY'] ?? 1);
/** Mokapi's GOMAXPROCS: the harness's 1 closes the race (mokapi-broker.ts, mokapiEnv). */
const goMaxProcs = Number(process.env['PROBE_GOMAXPROCS'] ?? availableParallelism());
const TOPIC = 'probe.commits';
const PARTITIONS = 6;

const quiet = new Logger('probe');
quiet.warn = () => undefined;

interface Round {
  broker: MokapiBroker;
  producer: Producer;
  consumers: Consumer[];
  pacers: CommitPacer[];
  producing: Promise<void>;
  stop: () => Promise<void>;
}

let commits = 0;
let handled = 0;
/** Messages handled by each group, over every broker: a group that stalls shows here. */
const handledByGroup: number[] = [];

async function startRound(): Promise<Round> {
  const broker = await startMokapiBroker({
    topics: [{ name: TOPIC, partitions: PARTITIONS }],
    logLevel: 'warn',
    goMaxProcs,
  });
  const kafka = new Kafka({
    clientId: 'probe',
    brokers: [broker.brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 2 },
  });
  const producer = kafka.producer();
  await producer.connect();
  let running = true;
  const producing = (async () => {
    for (let i = 0; running; i++) {
      await producer
        .send({
          topic: TOPIC,
          messages: Array.from({ length: PARTITIONS }, (_, partition) => ({
            partition,
            value: JSON.stringify({ i, partition }),
          })),
        })
        .catch(() => undefined);
    }
  })();
  const consumers: Consumer[] = [];
  const pacers: CommitPacer[] = [];
  await Promise.all(
    Array.from({ length: groups }, async (_, g) => {
      const consumer = kafka.consumer({
        groupId: `probe-${g}`,
        maxWaitTimeInMs: MOKAPI_FETCH_MAX_WAIT_MS,
        sessionTimeout: 10_000,
        heartbeatInterval: 1_000,
      });
      consumer.on(consumer.events.COMMIT_OFFSETS, () => commits++);
      consumers.push(consumer);
      await consumer.connect();
      await consumer.subscribe({ topic: TOPIC, fromBeginning: false });
      if (mode === 'batch') {
        await consumer.run({
          partitionsConsumedConcurrently: concurrency,
          eachMessage: async () => {
            handled++;
            handledByGroup[g] = (handledByGroup[g] ?? 0) + 1;
          },
        });
        return;
      }
      const pacer = new CommitPacer(consumer, intervalMs, quiet);
      pacers.push(pacer);
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: concurrency,
        eachMessage: async ({ topic, partition, message }) => {
          handled++;
          handledByGroup[g] = (handledByGroup[g] ?? 0) + 1;
          pacer.handled(topic, partition, message.offset);
        },
      });
    }),
  );
  return {
    broker,
    producer,
    consumers,
    pacers,
    producing,
    stop: async () => {
      running = false;
      for (const pacer of pacers) pacer.release();
      await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
      await producer.disconnect().catch(() => undefined);
      await producing;
      await broker.stop();
    },
  };
}

async function main(): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  let deaths = 0;
  let raceDeaths = 0;
  let rounds = 0;
  const started = Date.now();
  while (Date.now() < deadline) {
    rounds++;
    const round = await startRound();
    while (Date.now() < deadline && round.broker.isRunning())
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (!round.broker.isRunning()) {
      deaths++;
      const race = isMokapiCommitRace(round.broker.crashOutput());
      if (race) raceDeaths++;
      process.stdout.write(
        `  broker died after ${Math.round((Date.now() - started) / 1000)} s: ` +
          `${round.broker.exitStatus()}, ${round.broker.deathCause() ?? 'no fatal error printed'}` +
          `${race ? ' [the offset-commit race]' : ''}\n`,
      );
    }
    await round.stop();
  }
  const elapsed = (Date.now() - started) / 1000;
  process.stdout.write(
    `mokapi commit race, ${mode}${mode === 'paced' ? ` every ${intervalMs} ms` : ''}, ` +
      `${groups} groups x ${PARTITIONS} partitions, ${concurrency} at once, ` +
      `GOMAXPROCS=${goMaxProcs}, ${elapsed.toFixed(0)} s: ` +
      `${handled} messages handled, ${commits} commits (${(commits / elapsed).toFixed(0)}/s), ` +
      `${rounds} broker(s), ${deaths} death(s), ${raceDeaths} of them the offset-commit race\n` +
      `  handled by group: ${Array.from({ length: groups }, (_, g) => handledByGroup[g] ?? 0).join(' ')}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
