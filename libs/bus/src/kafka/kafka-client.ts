import { Logger } from '@nestjs/common';
import { ClientKafka, KafkaHeaders, KafkaOptions } from '@nestjs/microservices';
import type { ConsumerGroupJoinEvent, EachMessagePayload } from 'kafkajs';
import { CommitPacer, paceCommits } from './commit-pacer';
import { ReadAgainOnce } from './read-again';

/**
 * Nest's Kafka client, with two changes to its reply consumer.
 *
 * Every reply partition it reads gets a committed offset as soon as it is assigned, where the
 * group has none: the partition's end. A reply consumer starts at the end of a partition with no
 * committed offset (REPLIES_FROM_LATEST in kafka-options.ts), and kafkajs commits a partition only
 * once it handled a message of it; so a consumer put out of its group before its first reply on
 * a partition (the Mokapi test broker expires every member of every group at once after a stall
 * of its own; a real broker after a session timeout) came back at the end of that partition and
 * skipped every reply produced meanwhile: those requests answered 504 although they were done.
 * Seen in the kill suite's rolling restart: the gateway's reply group was expired while idle,
 * its first commits on order.create.v1.reply and label.label.create.v1.reply came only after it
 * rejoined eleven seconds later, and the two requests sent just before were answered 504 at their
 * deadline while every later one succeeded.
 *
 * And with a commit interval (BUS_COMMIT_INTERVAL_MS; the
 * run options must then say `autoCommit: false`), commits through a CommitPacer. A reply read
 * again after a rebalance finds no request waiting for it and is ignored, so a paced commit costs
 * nothing; the first commit of the group still goes at once, so a rejoin resumes from a committed
 * offset rather than the end of the reply topics.
 */
export class PacedKafkaClient extends ClientKafka {
  private pacer?: CommitPacer;
  private readonly replyLogger = new Logger('ReplyConsumer');
  /** Reply partitions ("topic:partition") whose starting point this process committed. */
  private readonly startsCommitted = new Set<string>();
  /** Replies read without their correlation id (Mokapi's record without its value). */
  private readonly replies = new ReadAgainOnce(this.replyLogger, 'a reply');

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly commitIntervalMs = 0,
  ) {
    super(options);
  }

  override async bindTopics(): Promise<void> {
    if (this.commitIntervalMs > 0 && this._consumer)
      this.pacer = paceCommits(this._consumer, this.commitIntervalMs, `${this.groupId}`);
    await super.bindTopics();
  }

  override createResponseCallback(): (payload: EachMessagePayload) => Promise<void> {
    const respond = super.createResponseCallback() as (payload: EachMessagePayload) => unknown;
    return async (payload) => {
      if (this.readsAgain(payload)) return;
      await respond(payload);
      this.pacer?.handled(payload.topic, payload.partition, payload.message.offset);
    };
  }

  /**
   * Every reply a Consign process produces carries Nest's correlation header, and a reply without
   * it matches no request: Nest ignores it, and whoever waits for it answers 504 at its deadline.
   * Such a reply is read again, once (see ReadAgainOnce: the test broker's record without its
   * value); a second reading without the header is ignored as before.
   */
  private readsAgain({ topic, partition, message }: EachMessagePayload): boolean {
    if (message.headers?.[KafkaHeaders.CORRELATION_ID] !== undefined) return false;
    return this.replies.readAgain(
      this._consumer,
      { topic, partition, offset: message.offset },
      `came without its correlation id (${message.value?.length ?? 0} bytes)`,
      'ignored',
    );
  }

  protected override setConsumerAssignments(data: ConsumerGroupJoinEvent): void {
    super.setConsumerAssignments(data);
    void this.commitReplyStartingPoints().catch((error: unknown) =>
      this.replyLogger.warn(
        `committing where the reply partitions start: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }

  /**
   * The reply partitions this process reads (one per reply topic, Nest's choice) that it has not
   * committed yet get a committed offset: their current end. Whatever lies before it is a reply
   * to a request of another process, or of this one before it read the partition at all (none:
   * requests are sent only once the consumer fetched, see platform.module), so nobody waits for
   * it. What the running consumer reads is unchanged; a rejoin resumes there at worst. (Which
   * offsets the group holds cannot be asked instead: Mokapi answers OffsetFetch to members only.)
   */
  private async commitReplyStartingPoints(): Promise<void> {
    const consumer = this._consumer;
    const assigned = Object.entries(this.consumerAssignments).filter(
      ([topic, partition]) => !this.startsCommitted.has(`${topic}:${partition}`),
    );
    if (!this.client || !consumer || assigned.length === 0) return;
    const admin = this.client.admin();
    await admin.connect();
    try {
      for (const [topic, partition] of assigned) {
        const end = (await admin.fetchTopicOffsets(topic)).find((p) => p.partition === partition);
        if (!end) continue;
        // One partition per request, as the commit pacer does (Mokapi's commit race).
        await consumer.commitOffsets([{ topic, partition, offset: end.high }]);
        this.startsCommitted.add(`${topic}:${partition}`);
      }
    } finally {
      await admin.disconnect();
    }
  }

  override async close(): Promise<void> {
    // Replies need no last commit: stop pacing before the consumer disconnects.
    this.pacer?.release();
    this.pacer = undefined;
    await super.close();
  }
}
