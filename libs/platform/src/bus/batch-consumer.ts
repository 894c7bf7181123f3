import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { KafkaLogger } from '@nestjs/microservices/helpers/kafka-logger';
import { Consumer, Kafka } from 'kafkajs';
import { AppConfig } from '../config/app-config';
import { headersToStrings } from '../messaging/dead-letter';
import { correlationIdOfHeaders, runWithCorrelationId } from '../observability/correlation';
import { metrics } from '../observability/metrics';
import { EventHandler, InProcessBroker } from './in-process-broker';
import { kafkaJsConfig } from './kafka/kafka-options';
import { kafkaConsumerHealth } from '../health/kafka-consumer-health';

/**
 * One consumed message: its key, its value parsed as JSON (the raw text when it is not JSON), and
 * the correlation id its `x-correlation-id` header carries, if any.
 */
export interface ConsumedMessage {
  key: string | null;
  value: unknown;
  /** Its Kafka headers as strings (none on the in-process bus); copied onto a dead letter. */
  headers?: Record<string, string>;
  correlationId?: string;
}

/**
 * Handles a batch; resolving acknowledges every message in it, so resolve only once persisted.
 * It may report how many messages it parked in the dead-letter table (counted in the metrics).
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
}

/**
 * Consumes one topic in batches: with Kafka, a kafkajs consumer of its own (`eachBatch`; offsets
 * are committed only after the handler resolved, so a crash replays, never loses); on the
 * in-process bus, each published message as a batch of one (the publisher waits for the handler,
 * and concurrent publishers' messages can be coalesced by the handler).
 */
export class BatchTopicConsumer {
  private readonly logger: Logger;
  private consumer?: Consumer;
  private inProcessHandler?: EventHandler;

  constructor(
    private readonly config: AppConfig,
    private readonly broker: InProcessBroker | null,
    private readonly options: BatchTopicConsumerOptions,
  ) {
    this.logger = new Logger(`BatchConsumer:${options.topic}`);
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
    });
    const kafka = new Kafka({
      ...settings.client,
      logCreator: KafkaLogger.bind(null, this.logger),
    });
    const consumer = kafka.consumer(settings.consumer);
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: settings.fromBeginning });
    metrics().consumerGroups.add(this.options.groupId, [topic]);
    await consumer.run({
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }) => {
        if (batch.messages.length === 0) return;
        await this.handle(
          batch.messages.map((message) => ({
            key: message.key?.toString('utf8') ?? null,
            value: parseValue(message.value),
            headers: headersToStrings(message.headers),
            correlationId: correlationIdOfHeaders(message.headers),
          })),
        );
        resolveOffset(batch.messages[batch.messages.length - 1].offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
    // run() resolved once the consumer joined its group; readiness follows it from here.
    kafkaConsumerHealth.track(`${this.options.groupId}-batch`, consumer);
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
    const consumer = this.consumer;
    this.consumer = undefined;
    if (consumer) kafkaConsumerHealth.untrack(consumer);
    await consumer?.disconnect().catch((error: unknown) => {
      this.logger.warn(`disconnecting: ${error instanceof Error ? error.message : String(error)}`);
    });
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
