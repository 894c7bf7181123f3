/**
 * Runs `task` every `intervalMs` (and at once, unless `immediately` is false), without keeping
 * the process alive, a run skipped while the previous one is still going; a failure goes to
 * `onError` and the schedule goes on. Returns the function that stops it; the promise it returns
 * settles once a run in flight has finished (so that a shutdown does not close the database under
 * it).
 */
export function runPeriodically(
  task: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
  { immediately = true }: { immediately?: boolean } = {},
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= task()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
      });
  };
  if (immediately) run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * A task a service runs every `intervalMs` for as long as it is up (runPeriodically, the first run
 * after one interval): started when the application has bootstrapped, stopped before it shuts
 * down, the run in flight awaited so that the database is not closed under it. A Nest provider
 * extends it; Nest calls the two lifecycle methods by name, so this library needs no Nest.
 */
export abstract class PeriodicTask {
  private stopRuns?: () => Promise<void>;

  /** Milliseconds between runs, read at start-up; 0 turns the task off. */
  protected abstract get intervalMs(): number;

  /** One run. */
  protected abstract runOnce(): Promise<unknown>;

  /** Reports a run that failed (the schedule goes on), with the error's message. */
  protected abstract reportFailure(message: string): void;

  onApplicationBootstrap(): void {
    const intervalMs = this.intervalMs;
    if (intervalMs === 0) return;
    this.stopRuns = runPeriodically(
      () => this.runOnce(),
      intervalMs,
      (error: unknown) =>
        this.reportFailure(error instanceof Error ? error.message : String(error)),
      { immediately: false },
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    const stop = this.stopRuns;
    this.stopRuns = undefined;
    await stop?.();
  }
}
