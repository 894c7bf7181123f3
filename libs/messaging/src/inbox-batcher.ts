import { Logger } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { EntityManager } from 'typeorm';
import { EventEnvelope, EventPayload, EventTopic } from '@consign/contracts';
import { Inbox } from './inbox';
import { MicroBatcher, MicroBatcherOptions } from './micro-batcher';

/** An accepted event and what its handler needs with it (read before, outside the transaction). */
export interface InboxBatchItem<T> {
  event: EventEnvelope<unknown>;
  data: T;
}

type Outcome = 'handled' | 'duplicate' | 'dead-lettered';

/**
 * Batched consumption for one consumer: events handled at the same time (in-process, the outbox
 * relay publishes different aggregates at once; on Kafka, different partitions) share one inbox
 * transaction (Inbox.consumeBatch: one multi-row insert of inbox rows, `handle` once with the new
 * events, one commit) instead of one transaction each. A call resolves only after the commit
 * that holds its event, so nothing is acknowledged before it is persisted. A batch that fails
 * recorded nothing: each of its events is then handled alone (Inbox.consume, with its retries and
 * dead letter), in its caller's context, so dedup stays exact and one bad event cannot hold the
 * others back.
 */
export class InboxBatcher<T> {
  private readonly logger: Logger;
  private readonly batcher: MicroBatcher<InboxBatchItem<T>, 'handled' | 'duplicate'>;

  constructor(
    private readonly inbox: Inbox,
    private readonly consumer: string,
    private readonly handle: (manager: EntityManager, items: InboxBatchItem<T>[]) => Promise<void>,
    options: MicroBatcherOptions,
  ) {
    this.logger = new Logger(`InboxBatcher:${consumer}`);
    this.batcher = new MicroBatcher((items) => this.flush(items), options);
  }

  async consume<K extends EventTopic>(
    topic: K,
    raw: unknown,
    contract: ClassConstructor<EventPayload<K> & object>,
    data: T,
  ): Promise<Outcome> {
    const event = await this.inbox.accept(this.consumer, topic, raw, contract);
    if (!event) return 'dead-lettered';
    try {
      const [outcome] = await this.batcher.submit([{ event, data }]);
      return outcome;
    } catch (error: unknown) {
      this.logger.warn(
        `a batch holding ${topic} ${event.event_id} failed (${error instanceof Error ? error.message : String(error)}); handling it alone`,
      );
      return this.inbox.consume(
        this.consumer,
        topic,
        raw,
        (manager, accepted) => this.handle(manager, [{ event: accepted, data }]),
        { contract },
      );
    }
  }

  /** Resolves once everything submitted so far has been committed (or has failed). */
  drain(): Promise<void> {
    return this.batcher.drain();
  }

  private flush(items: InboxBatchItem<T>[]): Promise<('handled' | 'duplicate')[]> {
    const itemOf = new Map(items.map((item) => [item.event, item]));
    return this.inbox.consumeBatch(
      this.consumer,
      items.map((item) => item.event),
      (manager, fresh) =>
        this.handle(
          manager,
          fresh.map((event) => itemOf.get(event) as InboxBatchItem<T>),
        ),
    );
  }
}
