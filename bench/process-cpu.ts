import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process, all its threads, in µs (Linux); undefined elsewhere. */
export function cpuMicros(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the command name, in ticks.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
