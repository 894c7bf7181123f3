import { runPeriodically } from './periodic';

describe('runPeriodically', () => {
  it('skips a run while the previous one goes on, and stopping waits for the one in flight', async () => {
    let runs = 0;
    let finished = 0;
    let release!: () => void;
    const stop = runPeriodically(
      async () => {
        runs++;
        await new Promise<void>((resolve) => (release = resolve));
        finished++;
      },
      5,
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(runs).toBe(1); // ticks came while the first run was still going
    const stopped = stop();
    let done = false;
    void stopped.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(1);
  });

  it('waits for the first interval when asked not to run at once, and reports failures', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const stop = runPeriodically(
      async () => {
        runs++;
        throw new Error('boom');
      },
      10,
      (error) => errors.push(error),
      { immediately: false },
    );
    expect(runs).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 35));
    await stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBe(runs);
  });
});
