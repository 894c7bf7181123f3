import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { AppConfig } from '@consign/config';
import { BatchTopicConsumer, ConsumedMessage, kafkaJsConfig } from '@consign/bus';
import { REPO_ROOT, tempDir } from '../e2e/processes';
import { MokapiBroker, startMokapiBroker } from './mokapi-broker';

/*
 * The platform's pipelined BatchTopicConsumer against a Kafka-protocol broker (Mokapi): writes
 * overlap fetching, yet a committed offset never runs ahead of a finished write, a failed write is
 * read again, and a process killed in the middle of its writes loses nothing (its successor
 * re-reads exactly the uncommitted tail). Mokapi answers no OffsetFetch from outside the group,
 * so committed offsets are observed through the consumer's commit events and, after a kill,
 * through where the successor starts reading.
 */

const PARTITIONS = 2;
const FAIL_TOPIC = 'test.batch-consumer.fail.v1';
const KILL_TOPIC = 'test.batch-consumer.kill.v1';

let broker: MokapiBroker;
let kafka: Kafka;

beforeAll(async () => {
  broker = await startMokapiBroker({
    topics: [FAIL_TOPIC, KILL_TOPIC].map((name) => ({ name, partitions: PARTITIONS })),
    // The killed member stays in its group until its session expires; the successor then rejoins.
    rebalanceDelayMs: 1_500,
  });
  const settings = kafkaJsConfig({ clientId: 'test', groupId: 'test', brokers: [broker.brokers] });
  kafka = new Kafka({ ...settings.client, logLevel: logLevel.NOTHING });
}, 60_000);

afterAll(async () => {
  await broker?.stop();
});

/**
 * Message n goes to partition n % 2, so its offset there is floor(n / 2); sent 10 at a time, so
 * that the topic holds many small record batches (small fetches, many batches in flight).
 */
async function produce(topic: string, count: number): Promise<void> {
  const producer = kafka.producer(
    kafkaJsConfig({ clientId: 'test', groupId: 'test', brokers: [broker.brokers] }).producer,
  );
  await producer.connect();
  for (let first = 0; first < count; first += 10)
    await producer.send({
      topic,
      messages: Array.from({ length: Math.min(10, count - first) }, (_, i) => ({
        partition: (first + i) % PARTITIONS,
        value: JSON.stringify({ n: first + i }),
      })),
    });
  await producer.disconnect();
}

const messageAt = (partition: number, offset: number) => offset * PARTITIONS + partition;

/** Where a committed offset is ahead of a message that was not persisted. */
function aheadOfWrites(partition: number, offset: number, persisted: (n: number) => boolean) {
  for (let below = 0; below < offset; below++)
    if (!persisted(messageAt(partition, below)))
      return [`partition ${partition} committed ${offset}, offset ${below} not written`];
  return [];
}

async function until(condition: () => boolean, what: () => string, withinMs = 30_000) {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function numberOf({ value }: ConsumedMessage): number {
  return (value as { n: number }).n;
}

const kafkaConfig = () => Object.assign(new AppConfig(), { KAFKA_BROKERS: broker.brokers });

it('overlaps writes, commits only behind finished writes, and re-reads a failed write', async () => {
  const total = 300;
  const failing = 77;
  const written = new Map<number, number>();
  const commits = new Map<number, number>();
  const violations: string[] = [];
  let failed = 0;
  let running = 0;
  let mostAtOnce = 0;
  await produce(FAIL_TOPIC, total);
  const consumer = new BatchTopicConsumer(kafkaConfig(), null, {
    topic: FAIL_TOPIC,
    groupId: 'test-batch-consumer-fail',
    partitionsConsumedConcurrently: PARTITIONS,
    maxInFlightMessages: 50,
    maxBytesPerPartition: 256,
    handler: async (messages) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
        const numbers = messages.map(numberOf);
        if (numbers.includes(failing) && failed++ === 0) throw new Error('the database is away');
        for (const n of numbers) written.set(n, (written.get(n) ?? 0) + 1);
      } finally {
        running--;
      }
    },
    // Checked the moment the broker accepted each commit.
    onCommitted: (offsets) => {
      for (const { partition, offset } of offsets) {
        violations.push(...aheadOfWrites(partition, Number(offset), (n) => written.has(n)));
        commits.set(partition, Number(offset));
      }
    },
  });
  try {
    await consumer.start();
    await consumer.connected;
    await until(
      () => written.size === total,
      () => `every message written (${written.size} of ${total})`,
    );
  } finally {
    await consumer.stop();
  }
  expect(violations).toEqual([]);
  expect(failed).toBe(2); // the failed write, then its second reading
  expect(written.get(failing)).toBe(1);
  expect(mostAtOnce).toBeGreaterThan(1); // writes overlapped
  // stop() waited for the writes in flight and committed them.
  expect([...commits].sort()).toEqual([
    [0, total / PARTITIONS],
    [1, total / PARTITIONS],
  ]);
}, 90_000);

it('a process killed in the middle of its writes loses nothing: its successor re-reads the uncommitted tail', async () => {
  const total = 400;
  const perPartition = total / PARTITIONS;
  const hang = 201; // partition 1, offset 100: the write of its batch never finishes
  const groupId = 'test-batch-consumer-kill';
  await produce(KILL_TOPIC, total);
  const dir = tempDir('batch-consumer-kill');
  const journal = join(dir, 'journal');
  const script = join(REPO_ROOT, 'dist/libs/testing/src/kafka/batch-consumer.child.js');
  let child: ChildProcess | undefined;
  let successor: BatchTopicConsumer | undefined;
  try {
    child = spawn(process.execPath, [script], {
      env: {
        PATH: process.env.PATH ?? '',
        KAFKA_BROKERS: broker.brokers,
        TOPIC: KILL_TOPIC,
        GROUP: groupId,
        JOURNAL: journal,
        HANG: String(hang),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const journaled = () =>
      new Set(
        existsSync(journal)
          ? readFileSync(journal, 'utf8').split('\n').filter(Boolean).map(Number)
          : [],
      );
    // Everything but the hung batch gets written (the last message of each partition included).
    await until(
      () => journaled().has(total - 1) && journaled().has(total - 2),
      () => `the child's writes (${journaled().size} written; output: ${output})`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // its last commits land
    child.kill('SIGKILL');
    const before = journaled();
    expect(before.has(hang)).toBe(false);

    // The successor, in the same group, starts each partition at its committed offset.
    const reread: number[] = [];
    successor = new BatchTopicConsumer(kafkaConfig(), null, {
      topic: KILL_TOPIC,
      groupId,
      handler: async (messages) => {
        reread.push(...messages.map(numberOf));
      },
    });
    await successor.start();
    await successor.connected;
    await until(
      () => new Set([...before, ...reread]).size === total,
      () => `the uncommitted tail (${reread.length} read again)`,
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything beyond the tail
    await successor.stop();
    successor = undefined;

    const committedAtKill = [0, 1].map((partition) => {
      const offsets = reread
        .filter((n) => n % PARTITIONS === partition)
        .map((n) => (n - partition) / PARTITIONS);
      return offsets.length > 0 ? Math.min(...offsets) : perPartition;
    });
    // Partition 0 was written and committed to its end; partition 1 up to the hung batch, not beyond.
    expect(committedAtKill[0]).toBe(perPartition);
    expect(committedAtKill[1]).toBeGreaterThan(0);
    expect(committedAtKill[1]).toBeLessThanOrEqual((hang - 1) / PARTITIONS);
    for (const partition of [0, 1])
      expect(aheadOfWrites(partition, committedAtKill[partition], (n) => before.has(n))).toEqual(
        [],
      );
    // Exactly the uncommitted tail, each message once, in order.
    expect(reread).toEqual(
      Array.from({ length: perPartition - committedAtKill[1] }, (_, i) =>
        messageAt(1, committedAtKill[1] + i),
      ),
    );
  } finally {
    child?.kill('SIGKILL');
    await successor?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
