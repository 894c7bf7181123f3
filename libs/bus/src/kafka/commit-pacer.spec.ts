import { Logger } from '@nestjs/common';
import { CommitPacer, PartitionOffset } from './commit-pacer';

/** A consumer whose commits are recorded, each answered when the test says so. */
function recordingConsumer() {
  const requests: PartitionOffset[][] = [];
  const answers: (() => void)[] = [];
  return {
    requests,
    /** Answers the commits waiting for an answer. */
    answerAll() {
      for (const answer of answers.splice(0)) answer();
    },
    consumer: {
      commitOffsets(offsets: PartitionOffset[]): Promise<void> {
        requests.push(offsets);
        return new Promise<void>((resolve) => answers.push(resolve));
      },
    },
  };
}

const quiet = new Logger('test');
quiet.warn = () => undefined;

/** Lets pending promise callbacks and zero-delay timers run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CommitPacer', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('commits the first handled offset at once, then at most once per interval, the latest per partition', async () => {
    const broker = recordingConsumer();
    const pacer = new CommitPacer(broker.consumer, 1000, quiet);
    pacer.handled('t', 0, '4');
    jest.advanceTimersByTime(0);
    expect(broker.requests).toEqual([[{ topic: 't', partition: 0, offset: '5' }]]);
    broker.answerAll();
    await settle();

    pacer.handled('t', 0, '5');
    pacer.handled('t', 0, '6');
    pacer.handled('t', 1, '9');
    jest.advanceTimersByTime(999);
    expect(broker.requests).toHaveLength(1);
    jest.advanceTimersByTime(1);
    // One partition per request, one after the other: the next goes once the first is answered.
    expect(broker.requests.slice(1)).toEqual([[{ topic: 't', partition: 0, offset: '7' }]]);
    broker.answerAll();
    await settle();
    expect(broker.requests.slice(2)).toEqual([[{ topic: 't', partition: 1, offset: '10' }]]);
  });

  it('flushes what is pending without waiting for the interval, after the commit in flight', async () => {
    const broker = recordingConsumer();
    const pacer = new CommitPacer(broker.consumer, 60_000, quiet);
    pacer.handled('t', 0, '0');
    jest.advanceTimersByTime(0);
    pacer.handled('t', 0, '1');
    let flushed = false;
    const flushing = pacer.flush().then(() => (flushed = true));
    await settle();
    expect(broker.requests).toHaveLength(1);
    broker.answerAll();
    await settle();
    expect(broker.requests[1]).toEqual([{ topic: 't', partition: 0, offset: '2' }]);
    expect(flushed).toBe(false);
    broker.answerAll();
    await flushing;
    expect(flushed).toBe(true);
  });

  it('commits nothing of a forgotten assignment, nor anything once released', async () => {
    const broker = recordingConsumer();
    const pacer = new CommitPacer(broker.consumer, 1000, quiet);
    pacer.handled('t', 0, '0');
    pacer.forget();
    jest.advanceTimersByTime(5000);
    await pacer.flush();
    pacer.release();
    pacer.handled('t', 0, '1');
    jest.advanceTimersByTime(5000);
    expect(broker.requests).toEqual([]);
  });

  it('keeps committing after a refused commit', async () => {
    const requests: PartitionOffset[][] = [];
    const pacer = new CommitPacer(
      {
        commitOffsets: (offsets: PartitionOffset[]) => {
          requests.push(offsets);
          return requests.length === 1
            ? Promise.reject(new Error('REBALANCE_IN_PROGRESS'))
            : Promise.resolve();
        },
      },
      10,
      quiet,
    );
    pacer.handled('t', 0, '0');
    await pacer.flush();
    pacer.handled('t', 0, '1');
    jest.advanceTimersByTime(10);
    await settle();
    expect(requests).toEqual([
      [{ topic: 't', partition: 0, offset: '1' }],
      [{ topic: 't', partition: 0, offset: '2' }],
    ]);
  });

  it('waits for the handler calls it tracks', async () => {
    const pacer = new CommitPacer(recordingConsumer().consumer, 1000, quiet);
    let finish!: () => void;
    const handling = pacer.track(new Promise<void>((resolve) => (finish = resolve)));
    let idle = false;
    const waiting = pacer.idle().then(() => (idle = true));
    await settle();
    expect(idle).toBe(false);
    finish();
    await handling;
    await waiting;
    expect(idle).toBe(true);
  });
});
