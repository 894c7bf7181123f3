/**
 * Runs `task` now and then every `intervalMs`, without keeping the process alive, a run skipped
 * while the previous one is still going; a failure goes to `onError` and the schedule goes on.
 * Returns the function that stops it.
 */
export function runPeriodically(
  task: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
