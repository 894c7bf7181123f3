import { PeriodicTask, runPeriodically } from './periodic';

// Jest's clock throughout: on a loaded CI machine real 10 ms timers slipped (35 ms once held 2
// runs, not 3), and a test counting them failed for the machine, not the code.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Lets `ms` of Jest's clock pass, running the timers due and the promises they settle. */
const pause = (ms: number) => jest.advanceTimersByTimeAsync(ms);

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
    await pause(40);
    expect(runs).toBe(1); // eight ticks came while the first run was still going
    const stopped = stop();
    let done = false;
    void stopped.then(() => (done = true));
    await pause(20);
    expect(done).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(1);
    await pause(20);
    expect(runs).toBe(1);
  });

  it('runs at once, then every interval, and reports each failure', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const stop = runPeriodically(
      async () => {
        runs++;
        throw new Error('boom');
      },
      10,
      (error) => errors.push(error),
    );
    expect(runs).toBe(1);
    await pause(35);
    await stop();
    expect(runs).toBe(4);
    expect(errors).toHaveLength(4);
    await pause(50);
    expect(runs).toBe(4);
  });
});

/** A task that counts its runs, fails when told to, and can be held in flight. */
class CountingTask extends PeriodicTask {
  runs = 0;
  failures: string[] = [];
  failWith?: unknown;
  hold?: Promise<void>;

  constructor(private readonly every: number) {
    super();
  }

  protected get intervalMs(): number {
    return this.every;
  }

  protected async runOnce(): Promise<void> {
    this.runs++;
    await this.hold;
    if (this.failWith !== undefined) throw this.failWith;
  }

  protected reportFailure(message: string): void {
    this.failures.push(message);
  }
}

describe('PeriodicTask', () => {
  it('runs from one interval after bootstrap, reports each failure by its message, and stops', async () => {
    const task = new CountingTask(10);
    task.failWith = new Error('database unreachable');
    task.onApplicationBootstrap();
    expect(task.runs).toBe(0);
    await pause(9);
    expect(task.runs).toBe(0);
    await pause(26); // runs at 10, 20 and 30 ms: each next one an interval after the last ended
    await task.beforeApplicationShutdown();
    expect(task.runs).toBe(3);
    expect(task.failures).toEqual(Array(3).fill('database unreachable'));
    await pause(25);
    expect(task.runs).toBe(3);
  });

  it('reports a thrown value that is not an Error as its text', async () => {
    const task = new CountingTask(5);
    task.failWith = 'lock timeout';
    task.onApplicationBootstrap();
    await pause(15);
    await task.beforeApplicationShutdown();
    expect(task.failures).toEqual(['lock timeout', 'lock timeout', 'lock timeout']);
  });

  it('never runs with an interval of 0', async () => {
    const task = new CountingTask(0);
    task.onApplicationBootstrap();
    await pause(20);
    await task.beforeApplicationShutdown();
    expect(task.runs).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('shuts down only once the run in flight has finished', async () => {
    const task = new CountingTask(5);
    let release!: () => void;
    task.hold = new Promise<void>((resolve) => (release = resolve));
    task.onApplicationBootstrap();
    await pause(15);
    expect(task.runs).toBe(1); // the next one waits for this one to end
    let stopped = false;
    const stopping = task.beforeApplicationShutdown().then(() => (stopped = true));
    await pause(10);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
    await pause(20);
    expect(task.runs).toBe(1);
  });
});
