/**
 * Runs `task` at once and then every `intervalMs`, without keeping
 * the process alive, a run skipped while the previous one is still going; a failure goes to
 * `onError` and the schedule goes on. Returns the function that stops it; the promise it returns
 * settles once a run in flight has finished (so that a shutdown does not close the database under
 * it).
 */
export function runPeriodically(
  task: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= task()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * A task a service runs every `intervalMs` for as long as it is up (the first run one interval
 * after bootstrap; each next one `nextRunInMs` after the last ended, the interval unless the task
 * knows better): started when the application has bootstrapped, stopped before it shuts down, the
 * run in flight awaited so that the database is not closed under it. A failed run goes to
 * `reportFailure` and the next comes one interval later. A Nest provider extends it; Nest calls
 * the two lifecycle methods by name, so this library needs no Nest.
 */
export abstract class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;

  /** Milliseconds between runs, read at start-up; 0 turns the task off. */
  protected abstract get intervalMs(): number;

  /** One run. */
  protected abstract runOnce(): Promise<unknown>;

  /** Reports a run that failed (the schedule goes on), with the error's message. */
  protected abstract reportFailure(message: string): void;

  /**
   * How long after a run ends the next one starts: the interval, unless the task knows when it
   * next has work (a task alone with its data sleeps until its earliest deadline).
   */
  protected nextRunInMs(): Promise<number> | number {
    return this.intervalMs;
  }

  onApplicationBootstrap(): void {
    const intervalMs = this.intervalMs;
    if (intervalMs === 0) return;
    this.stopped = false;
    this.runIn(intervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private runIn(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.run().finally(() => (this.running = undefined));
    }, ms);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    let next = this.intervalMs;
    try {
      await this.runOnce();
      next = await this.nextRunInMs();
    } catch (error: unknown) {
      this.reportFailure(error instanceof Error ? error.message : String(error));
    }
    if (!this.stopped) this.runIn(next);
  }
}
