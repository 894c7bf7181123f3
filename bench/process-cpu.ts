import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's user and system CPU time, all its threads, in µs (Linux); undefined elsewhere. */
export function cpuTimes(pid: number | undefined): { user: number; system: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the command name, in ticks.
    return {
      user: (Number(fields[11]) * 1_000_000) / CLOCK_TICKS,
      system: (Number(fields[12]) * 1_000_000) / CLOCK_TICKS,
    };
  } catch {
    return undefined;
  }
}

/** User + system CPU time of a process, all its threads, in µs (Linux); undefined elsewhere. */
export function cpuMicros(pid: number | undefined): number | undefined {
  const times = cpuTimes(pid);
  return times && times.user + times.system;
}
