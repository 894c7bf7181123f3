/**
 * The time as a dependency, so that time-driven behaviour (expiry sweeps, simulated carrier
 * lifecycles) is tested with a clock the test moves, not by waiting.
 */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-05-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(time: Date | string): void {
    this.current = new Date(time).getTime();
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
