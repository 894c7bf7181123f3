import { appendFileSync } from 'node:fs';
import { AppConfig } from '@consign/config';
import { BatchTopicConsumer } from '@consign/bus';

/*
 * A process that consumes a topic with the platform's BatchTopicConsumer and "persists" each
 * message by appending its number to a journal file (a write the kernel keeps when the process is
 * killed), for the test that kills it in the middle of its writes (batch-consumer.e2e.spec.ts).
 *
 * Environment: KAFKA_BROKERS, TOPIC, GROUP, JOURNAL; HANG (a message number: the write of the batch
 * holding it never finishes, as if the process died in it). Messages are JSON `{ "n": number }`.
 * Each write takes 0–20 ms at random, so writes finish out of order. Prints "consuming" once
 * started.
 */

interface Numbered {
  n: number;
}

function isNumbered(value: unknown): value is Numbered {
  return typeof value === 'object' && value !== null && typeof (value as Numbered).n === 'number';
}

async function main(): Promise<void> {
  const env = process.env;
  const journal = env.JOURNAL ?? '';
  const hang = Number(env.HANG ?? -1);
  const config = Object.assign(new AppConfig(), { KAFKA_BROKERS: env.KAFKA_BROKERS });
  const consumer = new BatchTopicConsumer(config, null, {
    topic: env.TOPIC ?? '',
    groupId: env.GROUP ?? '',
    partitionsConsumedConcurrently: 2,
    maxInFlightMessages: 1000,
    maxBytesPerPartition: 1024,
    handler: async (messages) => {
      const numbers = messages.map(({ value }) => (isNumbered(value) ? value.n : -1));
      if (numbers.includes(hang)) await new Promise<never>(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      appendFileSync(journal, numbers.map((n) => `${n}\n`).join(''));
    },
  });
  await consumer.start();
  await consumer.connected;
  process.stdout.write('consuming\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
