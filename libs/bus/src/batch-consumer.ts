import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { KafkaLogger } from '@nestjs/microservices';
import { Batch, Consumer, ConsumerConfig, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { AppConfig } from '@consign/config';
import { headersToStrings } from './kafka/kafka-headers';
import { correlationIdOfHeaders, runWithCorrelationId, metrics } from '@consign/observability';
import { CommitLedger, LedgerBatch } from './commit-ledger';
import { EventHandler, InProcessBroker } from './in-process-broker';
import { kafkaJsConfig } from './kafka/kafka-options';
import { kafkaConsumerHealth } from './kafka/kafka-consumer-health';
import { warnOnRequestTimeouts } from './kafka/request-timeouts';
import { releaseConsumer, superviseConsumer } from './kafka/consumer-supervisor';
import { BUS_CONNECT_BACKOFF, BusConnection, connectInBackground } from './kafka/bus-connection';
import { CommitPacer } from './kafka/commit-pacer';
import { ReadAgainOnce } from './kafka/read-again';

/**
 * One consumed message: its key, its value parsed as JSON (the raw text when it is not JSON), and
 * the correlation id its `x-correlation-id` header carries, if any.
 */
export interface ConsumedMessage {
  key: string | null;
  value: unknown;
  /** Its Kafka headers as strings (none on the in-process bus); copied onto a dead letter. */
  headers?: Record<string, string>;
  /** Its bytes as consumed (Kafka only): a dead letter publishes them unchanged. */
  raw?: Buffer | null;
  correlationId?: string;
}

/**
 * Handles a batch; resolving acknowledges every message in it, so resolve only once persisted.
 * It may report how many messages it parked in the dead-letter table (counted in the metrics).
 * With Kafka, several calls may be in flight at once (later batches of a partition before earlier
 * ones finished), and a batch whose call rejects is read again with the batches after it: the
 * handler must be idempotent and must not depend on the order of its calls.
 */
export type BatchHandler = (
  messages: ConsumedMessage[],
) => Promise<void | { deadLettered: number }>;

/** The most correlation ids one batch's log lines name (a batch mixes many requests). */
const MAX_BATCH_CORRELATION_IDS = 10;

/**
 * The correlation id a batch is handled under: its messages' one id, or (batches mix requests)
 * up to ten of their distinct ids joined by commas, so a search for any of them finds the
 * batch's log lines; a new id when none carries one.
 */
export function batchCorrelationId(messages: readonly ConsumedMessage[]): string {
  const ids = new Set<string>();
  for (const { correlationId } of messages) {
    if (correlationId) ids.add(correlationId);
    if (ids.size === MAX_BATCH_CORRELATION_IDS) break;
  }
  return ids.size ? [...ids].join(',') : randomUUID();
}

export interface BatchTopicConsumerOptions {
  topic: string;
  /** Kafka consumer group (every replica of the service shares it). */
  groupId: string;
  handler: BatchHandler;
  /** Partitions handled at once (Kafka); their batches may be coalesced by the handler. */
  partitionsConsumedConcurrently?: number;
  /**
   * Kafka: messages handed to the handler whose call has not settled yet, at most (default
   * 10,000). While below it, a fetched batch is handed over and the next fetch starts at once, so
   * fetching overlaps writing; at the bound the consumer waits (and so does fetching).
   */
  maxInFlightMessages?: number;
  /** Kafka fetch sizes (kafkajs `maxBytesPerPartition`, `maxBytes`); kafkajs defaults 1 / 10 MiB. */
  maxBytesPerPartition?: number;
  maxBytes?: number;
  /** Kafka: called after offsets were committed (the next offset to read, by partition). */
  onCommitted?: (offsets: { partition: number; offset: string }[]) => void;
}

const DEFAULT_MAX_IN_FLIGHT_MESSAGES = 10_000;
/** After a failed write the partition pauses this long before re-reading, doubling, up to … */
const RETRY_INITIAL_MS = 200;
const RETRY_MAX_MS = 5_000;
/** Waiting for room, heartbeat at least this often (the consumers' heartbeat interval). */
const HEARTBEAT_WHILE_WAITING_MS = 1_000;

/**
 * Consumes one topic in batches. On the in-process bus, each published message is a batch of one
 * (the publisher waits for the handler, and concurrent publishers' messages can be coalesced by
 * the handler).
 *
 * With Kafka, a kafkajs consumer of its own, pipelined: `eachBatch` hands a batch to the handler
 * and returns without waiting for it (the fetch position moves on: `resolveOffset`), so the next
 * fetch overlaps the write; kafkajs fetches again only once every `eachBatch` of a fetch returned,
 * which without this would make fetching and writing take turns. Auto-commit is off: a
 * partition's offset is committed (`commitOffsets`) only past the batches whose handler resolved,
 * in order (`CommitLedger`), so a committed offset never runs ahead of a committed write and a
 * crash replays at most the uncommitted tail (the handler dedupes it). Commits go through a
 * CommitPacer: at most one per BUS_COMMIT_INTERVAL_MS (0: as soon as the previous one is
 * answered), each partition in a request of its own. At most
 * `maxInFlightMessages` are in flight; at the bound `eachBatch` waits (heartbeating), and so does
 * the fetcher. A handler that rejects: its partition is re-read from that batch's first offset
 * (`seek`; the batches after it are re-read too and never committed from the failed round) after a
 * pause that doubles with each consecutive failure. A rebalance (or a crash and restart of the
 * kafkajs consumer) forgets the batches in flight: their writes finish, their offsets are not
 * committed, and the partitions' owners re-read from the last committed offset. `stop()` stops
 * fetching, waits for the writes in flight, commits their offsets, then leaves.
 */
export class BatchTopicConsumer {
  private readonly logger: Logger;
  private consumer?: Consumer;
  private inProcessHandler?: EventHandler;
  private readonly ledger = new CommitLedger();
  /** Messages whose handler call has not settled (whether or not the ledger still counts them). */
  private inFlight = 0;
  private readonly writes = new Set<Promise<void>>();
  private roomWaiters: (() => void)[] = [];
  /** Commits the offsets the ledger releases (the latest per partition). */
  private pacer?: CommitPacer;
  private readonly failures = new Map<number, number>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private stopping = false;
  private connection?: BusConnection;
  /** Messages read without their value (Mokapi's record without its value). */
  private readonly lostValues: ReadAgainOnce;

  constructor(
    private readonly config: AppConfig,
    private readonly broker: InProcessBroker | null,
    private readonly options: BatchTopicConsumerOptions,
  ) {
    this.logger = new Logger(`BatchConsumer:${options.topic}`);
    this.lostValues = new ReadAgainOnce(this.logger, 'a message');
  }

  async start(): Promise<void> {
    const { topic } = this.options;
    if (!this.config.KAFKA_BROKERS) {
      if (!this.broker) throw new Error('the in-process bus needs its broker');
      this.inProcessHandler = async (value, headers) => {
        await this.handle([{ key: null, value, correlationId: correlationIdOfHeaders(headers) }]);
      };
      this.broker.registerEventHandler(topic, this.inProcessHandler);
      return;
    }
    const settings = kafkaJsConfig({
      clientId: `${this.options.groupId}-batch`,
      groupId: this.options.groupId,
      brokers: this.config.kafkaBrokers,
      fetchMaxWaitMs: this.config.KAFKA_FETCH_MAX_WAIT_MS,
    });
    const kafka = new Kafka({
      ...settings.client,
      logCreator: KafkaLogger.bind(null, this.logger),
    });
    const consumerConfig: ConsumerConfig = { ...settings.consumer };
    if (this.options.maxBytesPerPartition !== undefined)
      consumerConfig.maxBytesPerPartition = this.options.maxBytesPerPartition;
    if (this.options.maxBytes !== undefined) consumerConfig.maxBytes = this.options.maxBytes;
    const consumer = kafka.consumer(consumerConfig);
    this.consumer = consumer;
    const pacer = new CommitPacer(consumer, this.config.BUS_COMMIT_INTERVAL_MS, this.logger);
    this.pacer = pacer;
    this.stopping = false;
    // Before a rejoin (REBALANCING), after any join (GROUP_JOIN: also the joins kafkajs makes on
    // its own, e.g. after UNKNOWN_MEMBER_ID) and on a crash (kafkajs restarts and rejoins): what is
    // in flight belongs to an assignment that is gone.
    const forget = () => {
      this.ledger.reset();
      pacer.forget();
    };
    consumer.on(consumer.events.REBALANCING, forget);
    consumer.on(consumer.events.GROUP_JOIN, forget);
    consumer.on(consumer.events.CRASH, forget);
    const { onCommitted } = this.options;
    // Reported from kafkajs' own event: emitted only once the broker accepted the commit.
    if (onCommitted)
      consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => {
        for (const committed of payload.topics)
          if (committed.topic === topic)
            onCommitted(
              committed.partitions.map((p) => ({
                partition: Number(p.partition),
                offset: p.offset,
              })),
            );
      });
    const run = async () => {
      await consumer.subscribe({ topic, fromBeginning: settings.fromBeginning });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
        eachBatch: (payload) => this.eachBatch(consumer, payload),
      });
    };
    metrics().consumerGroups.add(this.options.groupId, [topic]);
    const name = `${this.options.groupId}-batch`;
    // Not awaited: the process starts whether or not the broker answers (readiness says
    // "not connected yet" meanwhile) and the consumer joins whenever it does.
    this.connection = connectInBackground(
      name,
      async () => {
        await consumer.connect();
        await run();
        // run() resolved once the consumer joined its group; readiness follows it from here.
        kafkaConsumerHealth.track(name, consumer);
        warnOnRequestTimeouts(name, consumer);
        superviseConsumer(name, consumer, run);
      },
      { reset: () => consumer.disconnect(), backoff: BUS_CONNECT_BACKOFF },
    );
  }

  /** Resolves once the consumer consumes (at once in-process). */
  get connected(): Promise<void> {
    return this.connection?.connected ?? Promise.resolve();
  }

  private async handle(messages: ConsumedMessage[]): Promise<void> {
    const outcome = await runWithCorrelationId(batchCorrelationId(messages), () =>
      this.options.handler(messages),
    );
    metrics().countBatch(this.options.topic, messages.length, outcome ? outcome.deadLettered : 0);
  }

  async stop(): Promise<void> {
    if (this.inProcessHandler && this.broker) {
      this.broker.unregisterAll({ request: [], event: [this.inProcessHandler] });
      this.inProcessHandler = undefined;
    }
    this.connection?.release();
    const consumer = this.consumer;
    if (!consumer) return;
    this.stopping = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.wake();
    // No new batch is handed over; the writes in flight finish and their offsets are committed
    // while the consumer is still a member of its group, then it leaves.
    try {
      consumer.pause([{ topic: this.options.topic }]);
    } catch {
      // Not running (never started, or crashed): nothing is being fetched.
    }
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
    await this.pacer?.flush();
    this.pacer?.release();
    this.pacer = undefined;
    this.consumer = undefined;
    kafkaConsumerHealth.untrack(consumer);
    releaseConsumer(consumer);
    await consumer.disconnect().catch((error: unknown) => {
      this.logger.warn(`disconnecting: ${messageOf(error)}`);
    });
  }

  private async eachBatch(consumer: Consumer, payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    if (batch.messages.length === 0) return;
    const limit = this.options.maxInFlightMessages ?? DEFAULT_MAX_IN_FLIGHT_MESSAGES;
    // Backpressure: wait for room (a batch larger than the bound goes alone), heartbeating so the
    // group does not think this member dead; a rebalance makes heartbeat() throw, ending the wait.
    while (this.inFlight > 0 && this.inFlight + batch.messages.length > limit) {
      if (this.stopping || !isRunning() || isStale()) return;
      await this.room(HEARTBEAT_WHILE_WAITING_MS);
      await heartbeat();
    }
    // Stopping, or the partition was sought (a failed write): this batch is read again later.
    if (this.stopping || !isRunning() || isStale()) return;
    const kept = this.withoutLostValue(consumer, batch);
    if (kept.length === 0) return;
    const first = kept[0].offset;
    const last = kept[kept.length - 1].offset;
    const entry = this.ledger.add(batch.partition, first, last);
    const messages = kept.map((message) => ({
      key: message.key?.toString('utf8') ?? null,
      value: parseValue(message.value),
      raw: message.value,
      headers: headersToStrings(message.headers),
      correlationId: correlationIdOfHeaders(message.headers),
    }));
    // The next fetch reads after this batch; the offset is committed only once it is written.
    resolveOffset(last);
    this.inFlight += messages.length;
    const write = this.write(consumer, entry, messages).finally(() => {
      this.inFlight -= messages.length;
      this.writes.delete(write);
      this.wake();
    });
    this.writes.add(write);
    await heartbeat();
  }

  /**
   * The batch up to its first message without any header and with a value that is not JSON,
   * which is read again, once, from a seek to it (see ReadAgainOnce: the test broker's record
   * without its value); handled, it would be a malformed event for the dead-letter table. The
   * messages before it are handled and committed as usual.
   */
  private withoutLostValue(
    consumer: Consumer,
    { topic, partition, messages }: Batch,
  ): KafkaMessage[] {
    const lost = messages.findIndex((message) =>
      this.lostValues.readAgainIfLost(consumer, topic, partition, message),
    );
    return lost < 0 ? messages : messages.slice(0, lost);
  }

  private async write(
    consumer: Consumer,
    entry: LedgerBatch,
    messages: ConsumedMessage[],
  ): Promise<void> {
    try {
      await this.handle(messages);
    } catch (error: unknown) {
      this.failed(consumer, entry, error);
      return;
    }
    this.failures.delete(entry.partition);
    const offset = this.ledger.persisted(entry);
    if (offset === undefined || consumer !== this.consumer) return;
    this.pacer?.offer([{ topic: this.options.topic, partition: entry.partition, offset }]);
  }

  private failed(consumer: Consumer, entry: LedgerBatch, error: unknown): void {
    const offset = this.ledger.failed(entry);
    if (offset === undefined) return; // already being re-read (or reassigned)
    const { topic } = this.options;
    const partition = entry.partition;
    const failures = (this.failures.get(partition) ?? 0) + 1;
    this.failures.set(partition, failures);
    const delay = Math.min(RETRY_MAX_MS, RETRY_INITIAL_MS * 2 ** (failures - 1));
    this.logger.warn(
      `handling ${topic}[${partition}] from offset ${offset} failed (${messageOf(error)}); ` +
        `re-reading it in ${delay} ms`,
    );
    if (this.stopping || consumer !== this.consumer) return;
    try {
      consumer.pause([{ topic, partitions: [partition] }]);
      consumer.seek({ topic, partition, offset });
    } catch (seekError: unknown) {
      // Not running (crashed, restarting): it re-reads from the committed offset anyway.
      this.logger.warn(`re-reading ${topic}[${partition}]: ${messageOf(seekError)}`);
      return;
    }
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (!this.stopping && consumer === this.consumer)
        consumer.resume([{ topic, partitions: [partition] }]);
    }, delay);
    this.retryTimers.add(timer);
  }

  /** Resolves when a write settles, or after `withinMs` (time to heartbeat again). */
  private room(withinMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, withinMs);
      this.roomWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function parseValue(value: Buffer | null): unknown {
  if (value === null) return null;
  const text = value.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
