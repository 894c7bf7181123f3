import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, isAlive, lockDataDir, lockFileOf } from './data-dir-lock';
import { DatabaseHost } from './database-host';

/**
 * Another process that holds a data folder's lock as a Consign process would: it writes its
 * owner record (pid, host, kernel start time) into the lock file and stays alive.
 */
function holder(lockFile: string): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs');
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    fs.writeFileSync(${JSON.stringify(lockFile)}, JSON.stringify({
      pid: process.pid, host: require('node:os').hostname(), started,
      app: 'holder', since: new Date().toISOString() }));
    process.stdout.write('held\\n');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('lockDataDir', () => {
  let dir: string;
  let children: ChildProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'consign-lock-'));
  });

  afterEach(async () => {
    for (const child of children) if (child.exitCode === null) await killed(child);
    children = [];
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a folder a live process holds, naming it, and writes nothing', async () => {
    const dataDir = join(dir, 'pgdata');
    const child = await holder(lockFileOf(dataDir));
    children.push(child);

    expect(() => lockDataDir(dataDir, 'second')).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir, 'second')).toThrow(
      new RegExp(`in use by holder \\(pid ${child.pid} on ${hostname()}`),
    );
    const host = new DatabaseHost({ kind: 'pglite', dataDir }, 'second');
    await expect(
      host.openServiceDataSource({ name: 'x', schema: 'x', entities: [], migrations: [] }),
    ).rejects.toBeInstanceOf(DataDirInUseError);
    await host.close();
    // Only the holder's lock file: no database folder, no temporary file.
    expect(readdirSync(dir)).toEqual(['pgdata.lock']);
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    const dataDir = join(dir, 'pgdata');
    const child = await holder(lockFileOf(dataDir));
    await killed(child);

    const release = lockDataDir(dataDir, 'successor');
    expect(existsSync(lockFileOf(dataDir))).toBe(true);
    release();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  });

  it('is re-entrant within a process and released by the last claim', () => {
    const dataDir = join(dir, 'pgdata');
    const first = lockDataDir(dataDir, 'app');
    const second = lockDataDir(dataDir, 'app');
    first();
    first();
    expect(existsSync(lockFileOf(dataDir))).toBe(true);
    second();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  });

  it('takes a pid that now belongs to a process started at another time as dead', () => {
    const base = { host: hostname(), app: 'old', since: '2026-01-01T00:00:00.000Z' };
    expect(isAlive({ ...base, pid: 1, started: 'not-its-start-time' })).toBe(false);
    expect(isAlive({ ...base, pid: 1, started: null })).toBe(true);
    expect(isAlive({ ...base, host: `${hostname()}-elsewhere`, pid: 1, started: null })).toBe(true);
  });

  it('takes over an unreadable lock only once it is not being written', () => {
    const dataDir = join(dir, 'pgdata');
    writeFileSync(lockFileOf(dataDir), '');
    expect(() => lockDataDir(dataDir, 'app')).toThrow(DataDirInUseError);
  });

  it('opens and closes the embedded database under the lock', async () => {
    const dataDir = join(dir, 'pgdata');
    const host = new DatabaseHost({ kind: 'pglite', dataDir }, 'app');
    const dataSource = await host.openServiceDataSource({
      name: 'locked',
      schema: 'locked',
      entities: [],
      migrations: [],
    });
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(() => lockDataDir(dataDir, 'app')()).not.toThrow();
    expect(existsSync(lockFileOf(dataDir))).toBe(true);
    await host.close();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  });
});
