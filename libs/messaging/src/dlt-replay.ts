import { Admin, Kafka, KafkaJSProtocolError, logLevel } from 'kafkajs';
import { DLT_HEADERS, deadLetterTopicOf } from '@consign/contracts';
import { kafkaJsConfig, headersToStrings } from '@consign/bus';

export interface DltReplayOptions {
  brokers: string[];
  /** The original topic: `<topic>.dlt` is read and its messages go back to `<topic>`. */
  topic: string;
  /** At most this many messages (default: all that are there when the replay starts). */
  limit?: number;
  /** How long to wait for the messages before giving up (default 60 s). */
  timeoutMs?: number;
}

export interface DltReplayResult {
  /** Messages produced back to the topic. */
  replayed: number;
  /** Messages on the DLT not replayed yet when the replay started. */
  pending: number;
}

/** The consumer group whose committed offsets remember what was replayed already. */
export function dltReplayGroup(topic: string): string {
  return `consign-dlt-replay.${topic}`;
}

/**
 * Replays a dead-letter topic: every message of `<topic>.dlt` not replayed before (the replay's own
 * consumer group remembers) is produced back to `<topic>` with its key and original headers, the
 * x-dlt-* ones dropped, and only then acknowledged. Consumers dedupe by event id (inbox), and a
 * dead letter's event was never marked handled, so it is applied once; if it fails again it goes
 * back to the DLT with fresh x-dlt-* headers. Stops at what the DLT held when it started.
 */
export async function replayDeadLetterTopic(options: DltReplayOptions): Promise<DltReplayResult> {
  const dlt = deadLetterTopicOf(options.topic);
  const groupId = dltReplayGroup(options.topic);
  const settings = kafkaJsConfig({
    clientId: 'consign-dlt-replay',
    groupId,
    brokers: options.brokers,
  });
  const kafka = new Kafka({ ...settings.client, logLevel: logLevel.ERROR });
  const admin = kafka.admin();
  await admin.connect();
  // Where each partition ends now, and where the group stopped last time.
  const remaining = new Map<number, { from: bigint; end: bigint }>();
  try {
    const ends = await admin.fetchTopicOffsets(dlt);
    const [committed] = await committedOffsets(admin, groupId, dlt);
    for (const { partition, offset, low } of ends) {
      const done = committed?.partitions.find((p) => p.partition === partition)?.offset ?? '-1';
      const from = BigInt(done) >= 0n ? BigInt(done) : BigInt(low);
      if (BigInt(offset) > from) remaining.set(partition, { from, end: BigInt(offset) });
    }
  } finally {
    await admin.disconnect();
  }
  let pending = 0;
  for (const { from, end } of remaining.values()) pending += Number(end - from);
  const limit = Math.min(options.limit ?? pending, pending);
  if (limit === 0) return { replayed: 0, pending };

  const producer = kafka.producer(settings.producer);
  const consumer = kafka.consumer({ ...settings.consumer, groupId });
  let replayed = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  try {
    await producer.connect();
    await consumer.connect();
    await consumer.subscribe({ topic: dlt, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
        const range = remaining.get(batch.partition);
        let next: bigint | undefined;
        for (const message of batch.messages) {
          const offset = BigInt(message.offset);
          if (!range || offset >= range.end || replayed >= limit) break;
          const headers = headersToStrings(message.headers);
          for (const name of Object.values(DLT_HEADERS)) delete headers[name];
          await producer.send({
            topic: options.topic,
            messages: [{ key: message.key, value: message.value, headers }],
          });
          resolveOffset(message.offset);
          replayed++;
          next = offset + 1n;
          if (next >= range.end) remaining.delete(batch.partition);
        }
        // Acknowledged only once produced back: a crash replays a message twice, never loses it.
        if (next !== undefined) {
          await consumer.commitOffsets([
            { topic: dlt, partition: batch.partition, offset: String(next) },
          ]);
        }
        await heartbeat();
        if (replayed >= limit || remaining.size === 0) finish();
      },
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`replayed ${replayed} of ${limit} before timing out`)),
        options.timeoutMs ?? 60_000,
      ).unref(),
    );
    await Promise.race([finished, timeout]);
    return { replayed, pending };
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
}

/**
 * The group's committed offsets on `topic` (none before its first replay). Kafka answers -1 for a
 * group it does not know; the Mokapi test broker refuses with UNKNOWN_MEMBER_ID instead.
 */
async function committedOffsets(
  admin: Admin,
  groupId: string,
  topic: string,
): Promise<{ partitions: { partition: number; offset: string }[] }[]> {
  try {
    return await admin.fetchOffsets({ groupId, topics: [topic] });
  } catch (error: unknown) {
    if (error instanceof KafkaJSProtocolError && error.type === 'UNKNOWN_MEMBER_ID') return [];
    throw error;
  }
}
