import { SOLE_WRITER_POLL_MS, soleWriterSleepMs } from './sole-writer';

describe('soleWriterSleepMs', () => {
  const now = Date.parse('2026-11-29T00:00:00Z');
  const inMs = (ms: number) => new Date(now + ms);

  it.each([
    ['nothing is due', null, {}, SOLE_WRITER_POLL_MS],
    ['work due in 1.5 s', inMs(1_500), {}, 1_500],
    ['with a margin past it', inMs(1_500), { marginMs: 10 }, 1_510],
    ['work due already', inMs(-5_000), {}, 50],
    ['work due after the safety look', inMs(60_000), {}, SOLE_WRITER_POLL_MS],
    ['a shorter longest sleep', inMs(60_000), { maxMs: 20_000 }, 20_000],
    ['nothing due, a shorter longest sleep', null, { maxMs: 20_000 }, 20_000],
  ])('sleeps as long as it should when %s', (_case, due, options, expected) => {
    expect(soleWriterSleepMs(due, now, options)).toBe(expected);
  });
});
