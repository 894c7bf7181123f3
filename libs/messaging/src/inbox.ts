import { Logger } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { DataSource, EntityManager } from 'typeorm';
import {
  EventEnvelope,
  EventPayload,
  EventTopic,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { DomainError } from '@consign/core';
import { currentConsumedMessage } from '@consign/observability';
import { parkDeadLetters } from './dead-letter';

export interface InboxOptions {
  /** Attempts before an event is parked in the dead-letter table. */
  maxAttempts?: number;
  /** First retry delay; doubles with each attempt. */
  retryDelayMs?: number;
  /**
   * Distributed mode (a Kafka broker): a dead letter is also published to `<topic>.dlt`, through
   * the outbox. Without it (standalone) the dead-letter table is the only record.
   */
  deadLetterTopics?: boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAY_MS = 100;

/**
 * What to do after attempt `attempt` failed with `error`: give up (a DomainError is the use case's
 * answer, which a retry cannot change; or the attempts are spent), or wait and retry, the delay
 * doubling from `retryDelayMs` (100, 200, 400, … ms by default).
 */
export function retryDecision(
  error: unknown,
  attempt: number,
  options: InboxOptions = {},
): { retry: false } | { retry: true; delayMs: number } {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (error instanceof DomainError || attempt >= maxAttempts) return { retry: false };
  return {
    retry: true,
    delayMs: (options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS) * 2 ** (attempt - 1),
  };
}

function isEnvelope(value: unknown): value is EventEnvelope<unknown> {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.event_id === 'string' &&
    /^[0-9a-f-]{36}$/i.test(v.event_id) &&
    typeof v.merchant_id === 'number' &&
    typeof v.aggregate_id === 'string' &&
    typeof v.occurred_at === 'string' &&
    'payload' in v
  );
}

/**
 * The consuming side of an event: each event is handled once per consumer, inside one transaction
 * with the inbox row that remembers it (a redelivery finds the row and changes nothing). A handler
 * that keeps failing is retried with backoff and then parked in the dead-letter table: never
 * silently dropped, and never blocking the events behind it forever.
 */
export class Inbox {
  private readonly logger: Logger;
  private readonly schema: string;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
    private readonly options: InboxOptions = {},
  ) {
    this.schema = schema;
    this.logger = new Logger(`Inbox:${schema}`);
  }

  /**
   * Returns 'handled', 'duplicate' or 'dead-lettered'. With a `contract`, the payload is validated
   * first (services do not trust what they consume) and the handler gets the validated instance;
   * an invalid payload is parked at once. So is an event the use case refuses with a DomainError
   * (e.g. a transition the state machine forbids): retrying cannot change the answer.
   */
  async consume<K extends EventTopic>(
    consumer: string,
    topic: K,
    raw: unknown,
    handler: (manager: EntityManager, event: EventEnvelope<EventPayload<K>>) => Promise<void>,
    options: { contract?: ClassConstructor<EventPayload<K> & object> } = {},
  ): Promise<'handled' | 'duplicate' | 'dead-lettered'> {
    const event = await this.accept(consumer, topic, raw, options.contract);
    if (!event) return 'dead-lettered';
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(async (manager) => {
          const inserted: unknown[] = await manager.query(
            `INSERT INTO "${this.schema}"."inbox_message" (consumer, event_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING RETURNING event_id`,
            [consumer, event.event_id],
          );
          if (inserted.length === 0) return 'duplicate' as const;
          await handler(manager, event);
          return 'handled' as const;
        });
      } catch (error: unknown) {
        const message = error instanceof Error ? error.message : String(error);
        const decision = retryDecision(error, attempt, this.options);
        if (!decision.retry) {
          this.logger.error(
            `${consumer} gave up on ${topic} ${event.event_id} after ${attempt} attempts: ${message}`,
          );
          await this.deadLetter(consumer, topic, raw, message, attempt);
          return 'dead-lettered';
        }
        this.logger.warn(
          `${consumer} failed on ${topic} ${event.event_id} (attempt ${attempt}): ${message}`,
        );
        await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
      }
    }
  }

  /**
   * The event, validated against its contract when one is given; null once an invalid one (not an
   * envelope, or a payload its contract refuses) is parked in the dead-letter table.
   */
  async accept<K extends EventTopic>(
    consumer: string,
    topic: K,
    raw: unknown,
    contract?: ClassConstructor<EventPayload<K> & object>,
  ): Promise<EventEnvelope<EventPayload<K>> | null> {
    if (!isEnvelope(raw)) {
      await this.deadLetter(consumer, topic, raw, 'not an event envelope', 1);
      return null;
    }
    const event = raw as EventEnvelope<EventPayload<K>>;
    if (!contract) return event;
    const validated = validateContract(contract, event.payload);
    if (validated.ok) return { ...event, payload: validated.value };
    const message = validationMessage(validated.errors);
    this.logger.error(`${consumer} refused ${topic} ${event.event_id}: ${message}`);
    await this.deadLetter(consumer, topic, raw, message, 1);
    return null;
  }

  /**
   * Several accepted events (see accept) in one transaction: one multi-row insert of their inbox
   * rows, then `handler` once with the events it inserted (in the order given; an event already
   * handled, or given twice, is passed once at most), then the commit. Returns whether each was
   * handled or a duplicate. No retry and no dead letter here: when it throws, nothing of the
   * batch was recorded, and the caller handles the events one by one with `consume` (which
   * retries, and parks the one that keeps failing), so dedup stays exact and one bad event
   * cannot hold the others back.
   */
  async consumeBatch<E extends EventEnvelope<unknown>>(
    consumer: string,
    events: readonly E[],
    handler: (manager: EntityManager, fresh: E[]) => Promise<void>,
  ): Promise<('handled' | 'duplicate')[]> {
    if (events.length === 0) return [];
    const inserted = await this.dataSource.transaction(async (manager) => {
      const rows: { event_id: string }[] = await manager.query(
        `INSERT INTO "${this.schema}"."inbox_message" (consumer, event_id)
         SELECT $1, id FROM unnest($2::uuid[]) AS id
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [consumer, events.map((event) => event.event_id)],
      );
      const ids = new Set(rows.map((row) => row.event_id.toLowerCase()));
      const fresh: E[] = [];
      const taken = new Set<string>();
      for (const event of events) {
        const id = event.event_id.toLowerCase();
        if (ids.has(id) && !taken.has(id)) {
          taken.add(id);
          fresh.push(event);
        }
      }
      if (fresh.length) await handler(manager, fresh);
      return new Set(fresh);
    });
    return events.map((event) => (inserted.has(event) ? 'handled' : 'duplicate'));
  }

  /**
   * Parks the message in the dead-letter table and, in distributed mode, on `<topic>.dlt` (see
   * parkDeadLetters), with the consumed message's key and headers; an envelope's aggregate id is
   * the key when the transport gave none (the outbox keys events by it).
   */
  private async deadLetter(
    consumer: string,
    topic: string,
    value: unknown,
    error: string,
    attempts: number,
  ) {
    const consumed = currentConsumedMessage();
    const key = consumed?.key ?? (isEnvelope(value) ? value.aggregate_id : null);
    await this.dataSource.transaction((manager) =>
      parkDeadLetters(
        manager,
        this.schema,
        [
          {
            consumer,
            topic,
            value,
            error,
            attempts,
            key,
            headers: consumed?.headers ?? {},
            raw: consumed?.value,
          },
        ],
        { toTopic: this.options.deadLetterTopics ?? false },
      ),
    );
  }
}
