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
