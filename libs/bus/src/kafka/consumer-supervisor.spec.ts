import { EventEmitter } from 'node:events';
import type { Consumer } from 'kafkajs';
import { ConsumerSupervisor, restartDelayMs } from './consumer-supervisor';

const EVENTS = {
  GROUP_JOIN: 'consumer.group_join',
  HEARTBEAT: 'consumer.heartbeat',
  CRASH: 'consumer.crash',
};

/** A kafkajs consumer as the supervisor sees it: events, connect and disconnect. */
function fakeConsumer(connectFailures = 0) {
  const emitter = new EventEmitter();
  const calls: string[] = [];
  let failures = connectFailures;
  const consumer = {
    events: EVENTS,
    on(event: string, listener: (e: unknown) => void) {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
    async connect() {
      calls.push('connect');
      if (failures-- > 0) throw new Error('Connection error: connect ECONNREFUSED');
    },
    async disconnect() {
      calls.push('disconnect');
    },
  } as unknown as Consumer;
  return {
    consumer,
    calls,
    emit: (event: string, payload?: unknown) => emitter.emit(event, { payload }),
  };
}

const FAST = { initialBackoffMs: 1, maxBackoffMs: 4, checkEveryMs: 5, stuckAfterMs: 40 };
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

describe('ConsumerSupervisor', () => {
  it('restarts a consumer kafkajs gave up on, retrying a refused connection until it runs', async () => {
    const { consumer, calls, emit } = fakeConsumer(2);
    let runs = 0;
    const supervisor = new ConsumerSupervisor('test', consumer, async () => void runs++, FAST);
    try {
      emit(EVENTS.CRASH, { restart: false, error: new Error('KafkaJSNonRetriableError') });
      await until(() => runs === 1);
      expect(calls).toEqual([
        'disconnect',
        'connect',
        'disconnect',
        'connect',
        'disconnect',
        'connect',
      ]);
    } finally {
      supervisor.release();
    }
  });

  it('leaves a crash kafkajs restarts itself to kafkajs', async () => {
    const { consumer, calls, emit } = fakeConsumer();
    const supervisor = new ConsumerSupervisor('test', consumer, async () => undefined, {
      ...FAST,
      stuckAfterMs: 60_000,
    });
    try {
      emit(EVENTS.CRASH, { restart: true, error: new Error('retriable') });
      await new Promise((r) => setTimeout(r, 50));
      expect(calls).toEqual([]);
    } finally {
      supervisor.release();
    }
  });

  it('restarts a consumer that stopped heartbeating (stuck in a rebalance), not a live one', async () => {
    // On Jest's clock: on the real one a loaded machine could let a heartbeat come late.
    jest.useFakeTimers();
    const { consumer, calls, emit } = fakeConsumer();
    let runs = 0;
    const supervisor = new ConsumerSupervisor('test', consumer, async () => void runs++, FAST);
    try {
      // A heartbeat every 5 ms for three times the silence that restarts: no restart.
      for (let elapsed = 0; elapsed < 3 * FAST.stuckAfterMs; elapsed += 5) {
        emit(EVENTS.HEARTBEAT);
        await jest.advanceTimersByTimeAsync(5);
      }
      expect(runs).toBe(0);
      expect(calls).toEqual([]);
      // Then silence: restarted once, when it has lasted stuckAfterMs (a check, then the backoff).
      await jest.advanceTimersByTimeAsync(FAST.stuckAfterMs - 10);
      expect(runs).toBe(0);
      await jest.advanceTimersByTimeAsync(10 + FAST.checkEveryMs + FAST.maxBackoffMs);
      expect(runs).toBe(1);
      expect(calls).toEqual(['disconnect', 'connect']);
    } finally {
      supervisor.release();
      jest.useRealTimers();
    }
  });

  it('never restarts a released consumer', async () => {
    const { consumer, calls, emit } = fakeConsumer();
    const supervisor = new ConsumerSupervisor('test', consumer, async () => undefined, FAST);
    supervisor.release();
    emit(EVENTS.CRASH, { restart: false, error: new Error('gone') });
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toEqual([]);
  });

  it('waits with exponential backoff and full jitter, capped', () => {
    const options = { initialBackoffMs: 100, maxBackoffMs: 1_000 };
    for (let i = 0; i < 50; i++) {
      expect(restartDelayMs(0, options)).toBeGreaterThanOrEqual(0);
      expect(restartDelayMs(0, options)).toBeLessThanOrEqual(100);
      expect(restartDelayMs(3, options)).toBeGreaterThanOrEqual(0);
      expect(restartDelayMs(3, options)).toBeLessThanOrEqual(800);
      expect(restartDelayMs(30, options)).toBeLessThanOrEqual(1_000);
    }
    const spread = new Set(Array.from({ length: 20 }, () => restartDelayMs(5, options)));
    expect(spread.size).toBeGreaterThan(1);
    // The step grows: the fourth attempt's waits reach past the first's whole range.
    const fourth = Array.from({ length: 200 }, () => restartDelayMs(3, options));
    expect(Math.max(...fourth)).toBeGreaterThan(100);
    expect(Math.min(...fourth)).toBeLessThan(400);
  });
});
