import { MicroBatcher } from './micro-batcher';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('MicroBatcher', () => {
  it('coalesces concurrent submissions into one flush and answers each with its own results', async () => {
    const flushes: number[][] = [];
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        flushes.push(items);
        return items.map((n) => n * 10);
      },
      { maxItems: 100, maxDelayMs: 5 },
    );
    const results = await Promise.all([
      batcher.submit([1, 2]),
      batcher.submit([3]),
      batcher.submit([4, 5, 6]),
    ]);
    expect(flushes).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(results).toEqual([[10, 20], [30], [40, 50, 60]]);
  });

  it('resolves a submission only after its flush finished', async () => {
    const gate = deferred();
    let settled = false;
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        await gate.promise;
        return items;
      },
      { maxItems: 10, maxDelayMs: 0 },
    );
    const submitted = batcher.submit([1]).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    gate.resolve();
    await submitted;
    expect(settled).toBe(true);
  });

  it('runs one flush at a time and flushes what queued meanwhile right after, up to maxItems', async () => {
    const gate = deferred();
    const flushes: number[][] = [];
    let running = 0;
    let maxRunning = 0;
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        flushes.push(items);
        if (flushes.length === 1) await gate.promise;
        running--;
        return items;
      },
      { maxItems: 3, maxDelayMs: 1 },
    );
    const first = batcher.submit([1]);
    await new Promise((r) => setTimeout(r, 10));
    const later = [batcher.submit([2, 3]), batcher.submit([4]), batcher.submit([5, 6, 7, 8])];
    gate.resolve();
    await Promise.all([first, ...later]);
    expect(maxRunning).toBe(1);
    // Whole submissions, in order; a submission larger than maxItems goes alone.
    expect(flushes).toEqual([[1], [2, 3, 4], [5, 6, 7, 8]]);
  });

  it('runs up to maxConcurrent flushes at once, each answering its own submissions', async () => {
    const gates = [deferred(), deferred(), deferred()];
    const flushes: number[][] = [];
    let running = 0;
    let maxRunning = 0;
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        const gate = gates[flushes.length];
        flushes.push(items);
        running++;
        maxRunning = Math.max(maxRunning, running);
        await gate.promise;
        running--;
        return items.map((n) => n * 10);
      },
      { maxItems: 2, maxDelayMs: 1000, maxConcurrent: 2 },
    );
    const settled: number[][] = [];
    const track = (p: Promise<number[]>) => p.then((r) => (settled.push(r), r));
    // Full batches start at once, without waiting for the delay; the third waits for a slot.
    const submissions = [
      track(batcher.submit([1, 2])),
      track(batcher.submit([3, 4])),
      track(batcher.submit([5, 6])),
    ];
    await new Promise((r) => setTimeout(r, 10));
    expect(flushes).toEqual([
      [1, 2],
      [3, 4],
    ]);
    // The second flush finishing first answers its own submission only.
    gates[1].resolve();
    await submissions[1];
    expect(settled).toEqual([[30, 40]]);
    await new Promise((r) => setTimeout(r, 10));
    expect(flushes).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    let drainedAt = -1;
    const drained = batcher.drain().then(() => (drainedAt = settled.length));
    gates[2].resolve();
    await submissions[2];
    await new Promise((r) => setTimeout(r, 10));
    expect(drainedAt).toBe(-1);
    gates[0].resolve();
    await drained;
    expect(drainedAt).toBe(3);
    expect(maxRunning).toBe(2);
    await expect(Promise.all(submissions)).resolves.toEqual([
      [10, 20],
      [30, 40],
      [50, 60],
    ]);
  });

  it('with a slot free, flushes a partial batch after maxDelayMs, not at once', async () => {
    const gate = deferred();
    const flushes: number[][] = [];
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        flushes.push(items);
        if (flushes.length === 1) await gate.promise;
        return items;
      },
      { maxItems: 3, maxDelayMs: 30, maxConcurrent: 2 },
    );
    const first = batcher.submit([1, 2, 3]);
    const second = batcher.submit([4]);
    const third = batcher.submit([5]);
    expect(flushes).toEqual([[1, 2, 3]]);
    await Promise.all([second, third]);
    expect(flushes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    gate.resolve();
    await first;
  });

  it('with maxDelayMs 0, takes what was submitted in the same turn together, and waits for no timer', async () => {
    // Timers frozen: only the end of the turn (setImmediate) can start the flush.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const flushes: number[][] = [];
      const batcher = new MicroBatcher<number, number>(
        async (items) => {
          flushes.push(items);
          return items;
        },
        { maxItems: 100, maxDelayMs: 0 },
      );
      const sameTurn = Promise.all([batcher.submit([1]), batcher.submit([2])]);
      expect(flushes).toEqual([]);
      await expect(sameTurn).resolves.toEqual([[1], [2]]);
      expect(flushes).toEqual([[1, 2]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects every submission of a failed flush, and keeps going', async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        if (fail) throw new Error('database down');
        return items;
      },
      { maxItems: 10, maxDelayMs: 1 },
    );
    const failed = await Promise.allSettled([batcher.submit([1]), batcher.submit([2])]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(batcher.submit([3])).resolves.toEqual([3]);
  });

  it('drains everything submitted', async () => {
    const seen: number[] = [];
    const batcher = new MicroBatcher<number, void>(
      async (items) => {
        seen.push(...items);
        return items.map(() => undefined);
      },
      { maxItems: 2, maxDelayMs: 50 },
    );
    void batcher.submit([1]);
    void batcher.submit([2, 3]);
    await batcher.drain();
    expect(seen).toEqual([1, 2, 3]);
  });
});
