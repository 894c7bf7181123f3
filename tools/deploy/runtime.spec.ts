import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './topology';

/**
 * One Node.js release line everywhere: .nvmrc (the exact version), the `node` devDependency that
 * npm scripts run whatever Node runs npm, `engines`, the Dockerfile's base image and CI.
 */
const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string }>;
};
const pinned = read('.nvmrc').trim();
const major = (version: string): number => Number(/^v?(\d+)\./.exec(version)?.[1]);

function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [version, minimum].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

describe('the Node.js runtime', () => {
  it('pins one exact version of a supported LTS line (22 or 24) in .nvmrc', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect([22, 24]).toContain(major(pinned));
  });

  it('runs these tests on the pinned version, not on whatever Node runs npm', () => {
    expect(process.versions.node).toBe(pinned);
  });

  it('installs the pinned version with the `node` package, exactly, in package.json and the lockfile', () => {
    expect(pkg.devDependencies.node).toBe(pinned);
    expect(lock.packages['node_modules/node']?.version).toBe(pinned);
  });

  it('declares an engines range that the pinned version meets and end-of-life Node 20 does not', () => {
    const minimum = /^>=(\d+\.\d+(?:\.\d+)?)$/.exec(pkg.engines.node)?.[1];
    expect(minimum).toBeDefined();
    expect(atLeast(pinned, minimum!)).toBe(true);
    expect(atLeast('20.20.2', minimum!)).toBe(false);
    expect(major(minimum!)).toBe(major(pinned));
  });

  it('builds the image on the pinned release line and types the code against it', () => {
    const image = /^ARG NODE_IMAGE=node:(\S+)$/m.exec(read('Dockerfile'))?.[1];
    expect(image).toMatch(new RegExp(`^${major(pinned)}(\\.[\\d.]+)?-`));
    expect(major(lock.packages['node_modules/@types/node']?.version ?? '')).toBe(major(pinned));
  });

  it('makes CI install with the pinned version when the machine has another', () => {
    const ci = read('.ci/run');
    expect(ci).toContain('.nvmrc');
    expect(ci).toMatch(/npm exec --yes --package="node@\$\{?NODE_VERSION\}?" -- npm ci/);
  });
});
