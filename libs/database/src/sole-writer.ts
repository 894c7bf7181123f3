/**
 * A process alone with its database (DatabaseHost.exclusive: the embedded one) needs no poll for
 * other processes' writes: its looks run when its own writes commit and when its next work falls
 * due. This is the longest it sleeps between looks all the same, a safety net (well inside
 * readiness's 60 s on the oldest unrelayed event).
 */
export const SOLE_WRITER_POLL_MS = 30_000;

/** The shortest sleep before work already due (due but not claimable: another transaction holds it). */
const MIN_SLEEP_MS = 50;

/**
 * How long such a process sleeps before its next look: until `due`, the earliest time its work
 * falls due (null: none), plus `marginMs` (past it, for a claim comparing with `<`), by `nowMs` on
 * the same clock; at least 50 ms, at most `maxMs`.
 */
export function soleWriterSleepMs(
  due: Date | null,
  nowMs: number,
  { marginMs = 0, maxMs = SOLE_WRITER_POLL_MS }: { marginMs?: number; maxMs?: number } = {},
): number {
  if (due === null) return maxMs;
  return Math.min(maxMs, Math.max(MIN_SLEEP_MS, due.getTime() - nowMs + marginMs));
}
