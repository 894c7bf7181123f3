import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { deleteInBatches, deleteRows } from '@consign/database';
import { runPeriodically } from '@consign/core';

/** How long a published outbox event is kept: for inspection, as long as command records. */
export const PUBLISHED_EVENT_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How long an inbox message (an event id a consumer handled) is kept: longer than Kafka keeps any
 * topic we ship (k8s/base/kafka/topics.yaml: events 7 days, dead letters 28), so that no delivery of
 * an event arrives after its id was forgotten and is handled twice. A dead letter's replay produces
 * the event back to its topic, to every consumer of it, including those that handled it long ago.
 */
export const HANDLED_MESSAGE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Rows deleted per statement: short statements, short locks, however far behind the sweep is. */
const BATCH = 5000;

export interface RetentionOptions {
  publishedEventRetentionMs?: number;
  handledMessageRetentionMs?: number;
  now?: () => number;
}

/**
 * Keeps a service's outbox and inbox from growing without bound: deletes outbox events published
 * longer ago than the retention (never an unpublished one, however old) and inbox messages handled
 * longer ago than theirs. Runs hourly, in batches. Dead letters are not swept: they are the
 * record of what failed, deleted by an operator once dealt with (docs/operations.md).
 */
export class MessagingRetention {
  private readonly logger: Logger;
  private readonly outbox: string;
  private readonly inbox: string;
  private readonly now: () => number;
  private stopSweeping?: () => Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
    private readonly options: RetentionOptions = {},
  ) {
    this.outbox = `"${schema}"."outbox_event"`;
    this.inbox = `"${schema}"."inbox_message"`;
    this.logger = new Logger(`MessagingRetention:${schema}`);
    this.now = options.now ?? Date.now;
  }

  /** Deletes what is past its retention; returns how many events and messages. */
  async sweep(): Promise<{ events: number; messages: number }> {
    const now = this.now();
    const events = await this.deleteOld(
      `DELETE FROM ${this.outbox} WHERE id IN (
         SELECT id FROM ${this.outbox} WHERE published_at < $1 LIMIT ${BATCH})`,
      new Date(now - (this.options.publishedEventRetentionMs ?? PUBLISHED_EVENT_RETENTION_MS)),
    );
    const messages = await this.deleteOld(
      `DELETE FROM ${this.inbox} WHERE (consumer, event_id) IN (
         SELECT consumer, event_id FROM ${this.inbox} WHERE handled_at < $1 LIMIT ${BATCH})`,
      new Date(now - (this.options.handledMessageRetentionMs ?? HANDLED_MESSAGE_RETENTION_MS)),
    );
    return { events, messages };
  }

  /** Runs `sql` (one batch, cut-off $1) until a batch deletes less than a full batch. */
  private deleteOld(sql: string, cutOff: Date): Promise<number> {
    return deleteInBatches(BATCH, () => deleteRows(this.dataSource, sql, [cutOff]));
  }

  start(): void {
    this.stopSweeping = runPeriodically(
      async () => {
        const { events, messages } = await this.sweep();
        if (events + messages > 0)
          this.logger.log(`deleted ${events} published events and ${messages} inbox messages`);
      },
      SWEEP_INTERVAL_MS,
      (error: unknown) =>
        this.logger.warn(`sweeping the outbox and inbox failed: ${String(error)}`),
    );
  }

  stop(): void {
    void this.stopSweeping?.();
    this.stopSweeping = undefined;
  }
}
