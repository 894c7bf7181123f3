/**
 * Reads until the value settles as expected: for effects of asynchronous events (the stock saga)
 * that a client observes by polling. Fails with the last value read after `timeoutMs`.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  settled: (value: T) => boolean,
  { timeoutMs = 20_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (settled(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(`not settled after ${timeoutMs} ms; last read: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
