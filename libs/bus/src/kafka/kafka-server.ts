import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { KafkaOptions, ServerKafka } from '@nestjs/microservices';
import type { Consumer, EachMessagePayload } from 'kafkajs';
import { headersToStrings } from './kafka-headers';
import {
  correlationIdOfHeaders,
  runInMessageScope,
  metrics,
  continueTraceOf,
  isLogLevelOn,
} from '@consign/observability';
import { commandOfHeaders } from '../command-headers';
import { releaseConsumer, superviseConsumer } from './consumer-supervisor';
import { BUS_CONNECT_BACKOFF, BusConnection, connectInBackground } from './bus-connection';
import { kafkaConsumerHealth } from './kafka-consumer-health';
import { warnOnRequestTimeouts } from './request-timeouts';
import { ReadAgainOnce } from './read-again';
import { CommitPacer, drainPacedCommits, paceCommits } from './commit-pacer';

/**
 * Nest's Kafka server, observed: every consumed command or event is handled in one scope holding
 * the correlation id its `x-correlation-id` header carries (a new one when it has none), so the
 * handler's log lines, its bus requests and the events it writes to the outbox carry it, and the
 * message's key and headers (Nest hands `@EventPattern` handlers the value only), which a dead
 * letter copies onto `<topic>.dlt`, and the command id and deadline a command carries. The
 * consumer group is registered for the consumer-lag gauge, and the consumer is supervised:
 * restarted whenever kafkajs gives up on it (see ConsumerSupervisor), so no broker outage leaves
 * the service deaf. With a commit interval (BUS_COMMIT_INTERVAL_MS; the run options must then say
 * `autoCommit: false`), a handled message's offset is committed by a CommitPacer instead.
 */
export class ObservedKafkaServer extends ServerKafka {
  private readonly handlingLogger = new Logger('Bus');
  private connection?: BusConnection;
  private pacer?: CommitPacer;
  /** Replies being produced: close() waits for them before the producer disconnects. */
  private readonly replying = new Set<Promise<unknown>>();
  /** Messages read without their value (Mokapi's record without its value). */
  private readonly messages = new ReadAgainOnce(this.handlingLogger, 'a message');

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly commitIntervalMs = 0,
  ) {
    super(options);
  }

  override async handleMessage(payload: EachMessagePayload): Promise<unknown> {
    const { topic, partition } = payload;
    const { offset } = payload.message;
    // Read again, once, when it came without headers or a JSON value (see ReadAgainOnce: the test
    // broker's record without its value): handled, it would be a malformed event for the
    // dead-letter topic, or a command done without its reply reaching the caller. Left unhandled,
    // its offset is not committed past: the pacer does not hear of it, and with kafkajs'
    // auto-commit the seek commits the message's own offset when the next fetch applies it.
    if (this.messages.readAgainIfLost(this.consumer, topic, partition, payload.message))
      return undefined;
    const pacer = this.pacer;
    if (!pacer) return this.handleObserved(payload);
    try {
      const handled = await pacer.track(this.handleObserved(payload));
      pacer.handled(topic, partition, offset);
      return handled;
    } catch (error: unknown) {
      // As kafkajs' auto-commit does: commit what was handled before the consumer restarts.
      await pacer.flush();
      throw error;
    }
  }

  private handleObserved(payload: EachMessagePayload): Promise<unknown> {
    // Read before Nest's parser decodes the message in place.
    const { key, headers, value } = payload.message;
    const consumed = {
      key: key === null ? null : key.toString('utf8'),
      headers: headersToStrings(headers),
      value,
    };
    const correlationId = correlationIdOfHeaders(consumed.headers) ?? randomUUID();
    const command = commandOfHeaders(consumed.headers, payload.topic);
    // In the trace its headers carry (kafkajs's instrumentation usually continued it already).
    return runInMessageScope({ correlationId, consumed, command }, () =>
      continueTraceOf(payload.topic, consumed.headers, () => {
        if (isLogLevelOn('debug')) this.handlingLogger.debug(`handling ${payload.topic}`);
        return super.handleMessage(payload);
      }),
    );
  }

  /**
   * Answers Nest at once, so the process goes on to serve its health endpoints, and connects in
   * the background for as long as the broker takes to answer (see connectInBackground): Nest's
   * own listen gives up, and the process exits, once kafkajs' retries run out (about 25 s).
   * Readiness says "not connected yet" meanwhile; `connected` resolves once consuming.
   */
  override listen(callback: (error?: unknown, ...args: unknown[]) => void): Promise<void> {
    this.connection ??= connectInBackground(
      this.groupId,
      () =>
        new Promise<void>((resolve, reject) => {
          // ServerKafka.listen reports a failure through the callback, never by rejecting.
          void super.listen((error?: unknown) => (error ? reject(error) : resolve()));
        }),
      { reset: () => super.close(), backoff: BUS_CONNECT_BACKOFF },
    );
    callback();
    return Promise.resolve();
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    // Before the consumer runs, so that its first message is paced too.
    if (this.commitIntervalMs > 0 && !this.pacer)
      this.pacer = paceCommits(consumer, this.commitIntervalMs, this.groupId);
    await super.bindEvents(consumer);
    metrics().consumerGroups.add(this.groupId, this.messageHandlers.keys());
    // bindEvents resolved once the consumer joined its group.
    kafkaConsumerHealth.track(this.groupId, consumer);
    warnOnRequestTimeouts(this.groupId, consumer);
    if (this.producer) warnOnRequestTimeouts(`${this.groupId} replies`, this.producer);
    superviseConsumer(this.groupId, consumer, () => super.bindEvents(consumer));
  }

  /**
   * Nest resolves a request's handling once the handler answered, before its reply is produced:
   * the offset may be committed (the command recorded as done) while the reply is still on its
   * way. Tracked, so that close() does not disconnect the producer under it: a reply lost there
   * would leave the caller waiting until its deadline (a 504) for a command that was done.
   */
  override sendMessage(...args: Parameters<ServerKafka['sendMessage']>) {
    const sending = super.sendMessage(...args);
    this.replying.add(sending);
    const settled = (): void => {
      this.replying.delete(sending);
    };
    sending.then(settled, settled);
    return sending;
  }

  override async close(): Promise<void> {
    this.connection?.release();
    if (this.consumer) {
      releaseConsumer(this.consumer);
      // Paced: finish the message in hand and commit what was handled (before it leaves).
      if (this.pacer) await drainPacedCommits(this.consumer);
      await this.consumer.disconnect();
    }
    while (this.replying.size > 0) await Promise.allSettled([...this.replying]);
    await super.close();
  }
}
