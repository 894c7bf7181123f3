import { ClientKafka, KafkaOptions } from '@nestjs/microservices';
import type { EachMessagePayload } from 'kafkajs';
import { CommitPacer, paceCommits } from './commit-pacer';

/**
 * Nest's Kafka client whose reply consumer, with a commit interval (BUS_COMMIT_INTERVAL_MS; the
 * run options must then say `autoCommit: false`), commits through a CommitPacer. A reply read
 * again after a rebalance finds no request waiting for it and is ignored, so a paced commit costs
 * nothing; the first commit of the group still goes at once, so a rejoin resumes from a committed
 * offset rather than the end of the reply topics.
 */
export class PacedKafkaClient extends ClientKafka {
  private pacer?: CommitPacer;

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
      await respond(payload);
      this.pacer?.handled(payload.topic, payload.partition, payload.message.offset);
    };
  }

  override async close(): Promise<void> {
    // Replies need no last commit: stop pacing before the consumer disconnects.
    this.pacer?.release();
    this.pacer = undefined;
    await super.close();
  }
}
