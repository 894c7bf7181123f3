import { CachedReadings } from './cached-readings';

/** Seconds since the oldest unpublished event of an outbox was written; null when none waits. */
export type OldestPendingAge = () => Promise<number | null>;

export interface OutboxAge {
  service: string;
  /** Null when nothing waits, undefined when it could not be read. */
  oldestPendingSeconds: number | null | undefined;
}

/**
 * How far behind each outbox relay of the process is: the age of its oldest unpublished event.
 * A relay that drains keeps it near zero; one that cannot publish (broker down, a poisoned
 * event retried with backoff, a wedged database) lets it grow. Readiness compares it with
 * READINESS_MAX_OUTBOX_AGE_MS; /metrics serves it as `outbox_oldest_pending_age_seconds`.
 */
export class OutboxHealth {
  private readonly readings = new CachedReadings<number | null>('outbox age');

  /** Registers a service's outbox (when its relay starts); returns the function that forgets it. */
  track(service: string, read: OldestPendingAge): () => void {
    return this.readings.track(service, read);
  }

  /** Every registered outbox's age (each read at most once a second). */
  async ages(now: number = Date.now()): Promise<OutboxAge[]> {
    return (await this.readings.readAll(now)).map(([service, oldestPendingSeconds]) => ({
      service,
      oldestPendingSeconds,
    }));
  }
}

/** The process's registry: every service's outbox relay registers when it starts. */
export const outboxHealth = new OutboxHealth();
