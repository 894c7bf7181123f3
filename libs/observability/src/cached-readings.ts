import { Logger } from '@nestjs/common';

/**
 * Values read from the database on demand (a scrape, a readiness probe), one per registered key,
 * each cached for a second: scrapes and probes of every replica come every few seconds. Read one
 * after the other, not all at once: in the standalone app every service's DataSource is a
 * connection to the one embedded PGlite backend, which runs one query at a time. A reading that
 * fails is logged and reported as undefined.
 */
export class CachedReadings<T> {
  private readonly logger = new Logger('Metrics');
  private readonly readers = new Map<string, () => Promise<T>>();
  private readonly cache = new Map<string, { at: number; value: Promise<T | undefined> }>();

  constructor(
    /** What is read, for the log line of a failure (`outbox backlog`). */
    private readonly what: string,
    private readonly ttlMs = 1_000,
  ) {}

  /** Registers a key's reader; returns the function that forgets it. */
  track(key: string, read: () => Promise<T>): () => void {
    this.readers.set(key, read);
    this.cache.delete(key);
    return () => {
      if (this.readers.get(key) !== read) return;
      this.readers.delete(key);
      this.cache.delete(key);
    };
  }

  async readAll(now: number = Date.now()): Promise<[string, T | undefined][]> {
    const values: [string, T | undefined][] = [];
    for (const [key, read] of this.readers) {
      let cached = this.cache.get(key);
      if (!cached || now - cached.at >= this.ttlMs) {
        cached = {
          at: now,
          value: read().catch((error: unknown) => {
            this.logger.warn(
              `${this.what} of ${key} unavailable: ${error instanceof Error ? error.message : String(error)}`,
            );
            return undefined;
          }),
        };
        this.cache.set(key, cached);
      }
      values.push([key, await cached.value]);
    }
    return values;
  }
}
