import { Logger } from '@nestjs/common';

/** Seconds since the oldest unpublished event of an outbox was written; null when none waits. */
export type OldestPendingAge = () => Promise<number | null>;

export interface OutboxAge {
  service: string;
  /** Null when nothing waits, undefined when it could not be read. */
  oldestPendingSeconds: number | null | undefined;
}

/** Scrapes and probes of every replica come every few seconds: one query per outbox per second. */
const CACHE_MS = 1_000;

/**
 * How far behind each outbox relay of the process is: the age of its oldest unpublished event.
 * A relay that drains keeps it near zero; one that cannot publish (broker down, a poisoned
 * event retried with backoff, a wedged database) lets it grow. Readiness compares it with
 * READINESS_MAX_OUTBOX_AGE_MS; /metrics serves it as `outbox_oldest_pending_age_seconds`.
 */
export class OutboxHealth {
  private readonly logger = new Logger('OutboxHealth');
  private readonly readers = new Map<string, OldestPendingAge>();
  private readonly cache = new Map<
    string,
    { at: number; value: Promise<number | null | undefined> }
  >();

  /** Registers a service's outbox (when its relay starts); returns the function that forgets it. */
  track(service: string, read: OldestPendingAge): () => void {
    this.readers.set(service, read);
    this.cache.delete(service);
    return () => {
      if (this.readers.get(service) === read) this.readers.delete(service);
      this.cache.delete(service);
    };
  }

  /**
   * Every registered outbox's age, one after the other (on the embedded database every service's
   * connection reaches the one backend, which runs one query at a time).
   */
  async ages(now: number = Date.now()): Promise<OutboxAge[]> {
    const ages: OutboxAge[] = [];
    for (const [service, read] of this.readers) {
      let cached = this.cache.get(service);
      if (!cached || now - cached.at >= CACHE_MS) {
        cached = {
          at: now,
          value: read().catch((error: unknown) => {
            this.logger.warn(
              `outbox age of ${service} unavailable: ${error instanceof Error ? error.message : String(error)}`,
            );
            return undefined;
          }),
        };
        this.cache.set(service, cached);
      }
      ages.push({ service, oldestPendingSeconds: await cached.value });
    }
    return ages;
  }
}

/** The process's registry: every service's outbox relay registers when it starts. */
export const outboxHealth = new OutboxHealth();
