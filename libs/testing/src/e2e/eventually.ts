/**
 * Polls `probe` until `done` accepts its result (then returns it), or fails after `timeoutMs`
 * with the last result: for what happens asynchronously (carrier events, sagas), never a blind
 * sleep.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `${options.what ?? 'condition'} not reached in ${options.timeoutMs ?? 30_000} ms; last: ${JSON.stringify(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
