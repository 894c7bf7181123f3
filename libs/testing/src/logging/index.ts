/*
 * @consign/testing/logging: what the code under test logs through Nest's Logger, silenced and
 * recorded. Light (Nest's Logger only), for unit tests.
 */
import { Logger } from '@nestjs/common';

/**
 * Spies on `Logger.prototype[level]` for each test of the describe block it is called in (silenced,
 * restored after each test), and answers the current test's spy:
 *
 *   const warn = spyOnLogger('warn');
 *   it('…', () => { …; expect(warn()).toHaveBeenCalledWith('…'); });
 */
export function spyOnLogger(level: 'log' | 'warn' | 'error' | 'debug'): () => jest.SpyInstance {
  let spy: jest.SpyInstance | undefined;
  beforeEach(() => {
    spy = jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => {
    spy?.mockRestore();
    spy = undefined;
  });
  return () => {
    if (!spy) throw new Error(`spyOnLogger('${level}'): read inside a test of its describe block`);
    return spy;
  };
}
