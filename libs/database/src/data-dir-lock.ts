import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';

/** Who holds an embedded data folder: written as JSON in the lock file. */
export interface DataDirOwner {
  pid: number;
  host: string;
  /** The owner's start time as the kernel counts it (Linux), to tell a reused pid; else null. */
  started: string | null;
  /** The owning program, for the message a second process prints. */
  app: string;
  since: string;
}

/**
 * A second process tried to open an embedded data folder another process has open. Nothing was
 * written: the lock is taken before the embedded database is opened.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly owner: DataDirOwner | undefined,
  ) {
    const who = owner
      ? `${owner.app} (pid ${owner.pid} on ${owner.host}, since ${owner.since})`
      : 'another process';
    super(
      `the embedded database in ${lockFile.replace(/\.lock$/, '')} is in use by ${who}: one ` +
        `process owns an embedded database. Stop that process first, or manage the running ` +
        `platform over its admin API (npm run admin -- --url <gateway URL> --admin-key <key> …).` +
        ` If that process is gone for good, delete ${lockFile}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** The lock file of an embedded data folder: beside it, so that it exists before the folder. */
export function lockFileOf(dataDir: string): string {
  return `${resolve(dataDir)}.lock`;
}

const held = new Map<string, { count: number }>();
let exitHookInstalled = false;

/**
 * Takes the lock of an embedded data folder for this process, or throws DataDirInUseError when a
 * live process holds it. Re-entrant within a process (the standalone app claims the folder before
 * Nest starts, and the database host again when it opens it); the returned function releases one
 * claim. A lock left by a process that died (crash, SIGKILL, power loss) is taken over: its pid is
 * gone, or (Linux) now belongs to a process started at another time. The file is made complete
 * under a temporary name and linked into place, which fails if a lock exists: two processes
 * starting at once cannot both win, and no one ever reads a half-written owner.
 *
 * Why not an OS lock (flock/fcntl): Node.js has none without a native addon, and a pid-and-start
 * time record also tells the second process *who* holds the folder. Its limit: on a folder shared
 * between hosts (a network volume), another host's owner cannot be checked and is taken as alive.
 */
export function lockDataDir(dataDir: string, app: string): () => void {
  const file = lockFileOf(dataDir);
  const mine = held.get(file);
  if (mine) {
    mine.count++;
    return releaseOnce(file);
  }
  // A live owner is refused before anything is written, even the temporary file below.
  const before = readOwner(file);
  if (before && before !== 'gone' && isAlive(before)) throw new DataDirInUseError(file, before);
  mkdirSync(dirname(file), { recursive: true });
  const owner: DataDirOwner = {
    pid: process.pid,
    host: hostname(),
    started: startTimeOf(process.pid),
    app,
    since: new Date().toISOString(),
  };
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(owner)}\n`, { mode: 0o644 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(temporary, file);
        held.set(file, { count: 1 });
        installExitHook();
        return releaseOnce(file);
      } catch (error: unknown) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = readOwner(file);
      if (current === 'gone') continue;
      if (current && isAlive(current)) throw new DataDirInUseError(file, current);
      if (current === undefined && recentlyWritten(file))
        throw new DataDirInUseError(file, undefined);
      removeIfSame(file, current);
    }
    throw new DataDirInUseError(file, undefined);
  } finally {
    unlinkQuietly(temporary);
  }
}

function releaseOnce(file: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const entry = held.get(file);
    if (!entry || --entry.count > 0) return;
    held.delete(file);
    removeOwn(file);
  };
}

/** The owner recorded in a lock file; undefined when unreadable, 'gone' when the file vanished. */
function readOwner(file: string): DataDirOwner | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return undefined;
  }
  try {
    const owner = JSON.parse(text) as Partial<DataDirOwner>;
    return Number.isSafeInteger(owner.pid) && typeof owner.host === 'string'
      ? (owner as DataDirOwner)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the recorded owner still runs. Another host's cannot be checked: taken as alive. */
export function isAlive(owner: DataDirOwner): boolean {
  if (owner.host !== hostname()) return true;
  // Our own pid in a lock we do not hold: a former process of ours (e.g. pid 1 in a container).
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: the pid exists, under another user.
  }
  const started = startTimeOf(owner.pid);
  return !(owner.started && started && owner.started !== started);
}

/** Field 22 of /proc/<pid>/stat (clock ticks after boot): a pid reused later has another. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after it start with field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** An unreadable lock younger than this may be another process's being written: not stale. */
function recentlyWritten(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < 5_000;
  } catch {
    return false;
  }
}

/** Removes a stale lock, unless it changed since it was judged stale (another process took it). */
function removeIfSame(file: string, judged: DataDirOwner | undefined): void {
  const now = readOwner(file);
  if (now === 'gone') return;
  if (judged && now && (now.pid !== judged.pid || now.since !== judged.since)) return;
  unlinkQuietly(file);
}

function removeOwn(file: string): void {
  const owner = readOwner(file);
  if (owner && owner !== 'gone' && owner.pid === process.pid && owner.host === hostname())
    unlinkQuietly(file);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** A process that exits without closing its database (process.exit) still leaves no lock. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const file of held.keys()) removeOwn(file);
    held.clear();
  });
}
