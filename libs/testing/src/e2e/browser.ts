import { execFileSync } from 'node:child_process';

/** Debian's chromium, for the tests that look at a page in a browser (`.ci/run` installs it). */
export function chromiumPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Debian chromium is needed for the browser tests: apt-get install chromium');
  }
}

/** How the browser tests launch it: as a container's root user may, without /dev/shm's limits. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-dev-shm-usage'];
