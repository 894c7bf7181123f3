import fs from 'node:fs';

const STDOUT_FD = 1;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to `fd` now, waiting out a full pipe (EAGAIN: the reader is behind) as
 * pino's synchronous destination does. Not `process.stdout.write`: on a pipe it queues what the
 * pipe cannot take yet, and a process that exits drops that queue (measured: 9,183 of 20,000
 * lines reached a slow reader before process.exit).
 */
export function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error: unknown) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EBUSY') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/**
 * Log lines for stdout, written together once per turn of the event loop instead of one write
 * system call each: at a few thousand requests a second the access log's line per request cost
 * ≈ 5-7 µs of synchronous write each (docs/benchmarks.md). Nothing is ever in flight
 * asynchronously: lines wait in this process's memory until the end of the current turn
 * (setImmediate), until the buffer passes MAX_PENDING_CHARS, until a line that must not wait
 * (a warning or an error: see AppLogger) is written, or until the process exits, and are then
 * written synchronously (writeAllSync). So a process that exits (process.exit, an uncaught
 * error) loses no line; only SIGKILL can lose what one turn of the loop logged.
 */
export class BatchedStdout {
  /** Written at once past this many characters, so one busy turn cannot hold megabytes. */
  static readonly MAX_PENDING_CHARS = 64 * 1024;

  private pending = '';
  private scheduled = false;
  private readonly flushAtTurnEnd = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor() {
    process.on('exit', () => this.flush());
  }

  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= BatchedStdout.MAX_PENDING_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushAtTurnEnd);
    }
  }

  /** Writes what is waiting, now. */
  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending;
    this.pending = '';
    writeAllSync(STDOUT_FD, text);
  }
}

let processStdout: BatchedStdout | undefined;

/** The process's one batched stdout (one exit listener, one order of lines). */
export function batchedStdout(): BatchedStdout {
  return (processStdout ??= new BatchedStdout());
}
