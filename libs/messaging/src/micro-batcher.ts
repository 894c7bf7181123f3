export interface MicroBatcherOptions {
  /** A flush takes whole submissions up to this many items (one larger submission goes alone). */
  maxItems: number;
  /**
   * How long a submission waits for others before a free flush slot takes a partial batch; 0:
   * until the current turn of the event loop ends (setImmediate), not a timer's millisecond.
   */
  maxDelayMs: number;
  /**
   * Most flushes running at once (default 1). More than one overlaps one flush's work in this
   * process with another's in the database; the flush function must then be safe to run
   * concurrently with itself.
   */
  maxConcurrent?: number;
}

interface Pending<T, R> {
  items: T[];
  resolve(results: R[]): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent submissions into flushes (one transaction, a few multi-row statements),
 * for writes that are cheap in bulk and dear one by one. A submission resolves with its own
 * results once the flush holding it has finished — for a database write, after the commit — so a
 * consumer acknowledges nothing that is not persisted. Submissions are taken in order; up to
 * `maxConcurrent` flushes run at once. A free slot takes a full batch (`maxItems`) at once, a
 * partial one after `maxDelayMs`, and what queued while every slot was busy as soon as one frees.
 */
export class MicroBatcher<T, R> {
  private queue: Pending<T, R>[] = [];
  private queued = 0;
  private timer?: { cancel(): void };
  private readonly flushing = new Set<Promise<void>>();
  private readonly maxConcurrent: number;

  constructor(
    private readonly flushItems: (items: T[]) => Promise<R[]>,
    private readonly options: MicroBatcherOptions,
  ) {
    this.maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent ?? 1));
  }

  submit(items: T[]): Promise<R[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.queued += items.length;
      this.start(false);
    });
  }

  /** Resolves once everything submitted so far has been flushed. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing.size > 0) {
      this.start(true);
      await Promise.all([...this.flushing]);
    }
  }

  /** Fills the free slots: with full batches, or (`partial`) with whatever is queued. */
  private start(partial: boolean): void {
    while (
      this.flushing.size < this.maxConcurrent &&
      this.queue.length > 0 &&
      (partial || this.queued >= this.options.maxItems)
    ) {
      const flush: Promise<void> = this.flush(this.take()).finally(() => {
        this.flushing.delete(flush);
        // What arrived while every slot was busy waited already: flush it now.
        this.start(true);
      });
      this.flushing.add(flush);
    }
    if (this.queue.length === 0 || this.flushing.size >= this.maxConcurrent) {
      // Nothing waits, or a finishing flush will take it.
      this.timer?.cancel();
      this.timer = undefined;
    } else {
      // The oldest waiting submission's clock: later ones do not reset it.
      this.timer ??= this.after(() => {
        this.timer = undefined;
        this.start(true);
      });
    }
  }

  private after(run: () => void): { cancel(): void } {
    if (this.options.maxDelayMs <= 0) {
      const immediate = setImmediate(run);
      return { cancel: () => clearImmediate(immediate) };
    }
    const timeout = setTimeout(run, this.options.maxDelayMs);
    return { cancel: () => clearTimeout(timeout) };
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
