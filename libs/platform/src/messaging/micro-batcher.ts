export interface MicroBatcherOptions {
  /** A flush takes whole submissions up to this many items (one larger submission goes alone). */
  maxItems: number;
  /** How long the first submission waits for others when nothing is being flushed. */
  maxDelayMs: number;
}

interface Pending<T, R> {
  items: T[];
  resolve(results: R[]): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent submissions into one flush (one transaction, a few multi-row statements),
 * for writes that are cheap in bulk and dear one by one. A submission resolves with its own
 * results once the flush holding it has finished — for a database write, after the commit — so a
 * consumer acknowledges nothing that is not persisted. Flushes run one at a time, in submission
 * order; while one runs, the next one fills up.
 */
export class MicroBatcher<T, R> {
  private queue: Pending<T, R>[] = [];
  private queued = 0;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly flushItems: (items: T[]) => Promise<R[]>,
    private readonly options: MicroBatcherOptions,
  ) {}

  submit(items: T[]): Promise<R[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.queued += items.length;
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far has been flushed. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      if (!this.flushing) this.start();
      await this.flushing;
    }
  }

  private schedule(): void {
    if (this.flushing) return;
    if (this.queued >= this.options.maxItems) {
      this.start();
      return;
    }
    this.timer ??= setTimeout(() => this.start(), this.options.maxDelayMs);
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushing || this.queue.length === 0) return;
    const batch = this.take();
    this.flushing = this.flush(batch).finally(() => {
      this.flushing = undefined;
      // What arrived meanwhile waited already: flush it now rather than after another delay.
      if (this.queue.length > 0) this.start();
    });
  }

  private take(): Pending<T, R>[] {
    const batch: Pending<T, R>[] = [];
    let size = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (batch.length > 0 && size + next.items.length > this.options.maxItems) break;
      batch.push(this.queue.shift() as Pending<T, R>);
      size += next.items.length;
      this.queued -= next.items.length;
    }
    return batch;
  }

  private async flush(batch: Pending<T, R>[]): Promise<void> {
    try {
      const results = await this.flushItems(batch.flatMap((pending) => pending.items));
      let offset = 0;
      for (const pending of batch) {
        pending.resolve(results.slice(offset, offset + pending.items.length));
        offset += pending.items.length;
      }
    } catch (error: unknown) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
