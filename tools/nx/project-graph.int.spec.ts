import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, appFolders, projectJsonOf } from '../deploy/topology';

/**
 * Nx as it is meant to be used: the project graph comes from the sources' imports (no hand-kept
 * lists), every project has lint and, where it has specs, test targets, and `nx affected -t test`
 * runs the tests of what a change reaches.
 */
interface Graph {
  nodes: Record<string, { data: { root: string; targets: Record<string, unknown> } }>;
  dependencies: Record<string, { target: string; type: string }[]>;
}

const NX_ENV = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const nx = (...args: string[]) =>
  execFileSync(join(REPO_ROOT, 'node_modules/.bin/nx'), args, {
    cwd: REPO_ROOT,
    env: NX_ENV,
    encoding: 'utf8',
  });

/** The @consign/* libraries (their folder under libs/) the non-test sources under a folder import. */
function importedLibraries(folder: string): Set<string> {
  const found = new Set<string>();
  for (const entry of readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.spec.ts')) continue;
    const source = readFileSync(join(REPO_ROOT, folder, entry), 'utf8');
    for (const [, lib] of source.matchAll(/from '@consign\/([a-z-]+)'/g)) found.add(lib);
  }
  return found;
}

function readGraph(): Graph {
  const folder = mkdtempSync(join(tmpdir(), 'consign-nx-graph-'));
  try {
    nx('graph', `--file=${join(folder, 'graph.json')}`);
    return (JSON.parse(readFileSync(join(folder, 'graph.json'), 'utf8')) as { graph: Graph }).graph;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const hasSpecs = (root: string) =>
  readdirSync(join(REPO_ROOT, root), { recursive: true, encoding: 'utf8' }).some((entry) =>
    entry.endsWith('.spec.ts'),
  );

describe('the Nx workspace', () => {
  const graph = readGraph();
  const nameOf = (root: string) => projectJsonOf(root).name;
  const dependenciesOf = (project: string) =>
    new Set(graph.dependencies[project].map((d) => d.target));

  it('links every app and library to the libraries its sources import, with no hand-kept list', () => {
    const roots = [
      ...appFolders().map((app) => `apps/${app}`),
      ...readdirSync(join(REPO_ROOT, 'libs')).map((lib) => `libs/${lib}`),
    ];
    for (const root of roots) {
      const project = projectJsonOf(root) as { name: string; implicitDependencies?: string[] };
      const imported = [...importedLibraries(`${root}/src`)].map((lib) => nameOf(`libs/${lib}`));
      expect({
        project: project.name,
        missing: imported.filter((lib) => !dependenciesOf(project.name).has(lib)),
      }).toEqual({
        project: project.name,
        missing: [],
      });
      // The one implicit link left: end-to-end tests run the built apps, which they do not import.
      if (project.name !== 'e2e')
        expect({ project: project.name, implicit: project.implicitDependencies ?? [] }).toEqual({
          project: project.name,
          implicit: [],
        });
    }
  });

  it('gives every project a lint target, and a test target when it has specs', () => {
    for (const [name, { data }] of Object.entries(graph.nodes)) {
      expect({ name, lint: 'lint' in data.targets }).toEqual({ name, lint: true });
      expect({ name, test: 'test' in data.targets }).toEqual({ name, test: hasSpecs(data.root) });
    }
  });

  it('runs the tests a change affects: the library, what imports it, and the end-to-end suites', () => {
    const affected = (file: string) =>
      nx('show', 'projects', '--affected', `--files=${file}`, '--with-target=test')
        .split('\n')
        .filter(Boolean)
        .sort();
    // bench: the calculate/order benchmark's work-only server prices with rating's engine.
    expect(affected('libs/rating/src/index.ts')).toEqual([
      'admin',
      'bench',
      'e2e',
      'rating',
      'tools',
    ]);
    expect(affected('libs/tracing/src/index.ts')).toEqual([
      'carrier-sandbox-app',
      'e2e',
      'tools',
      'tracing',
    ]);
    // The platform libraries that import contracts (config, observability, bus, messaging) and
    // the platform composing them.
    expect(affected('libs/contracts/src/index.ts')).toEqual(
      expect.arrayContaining([
        'contracts',
        'config',
        'observability',
        'bus',
        'messaging',
        'platform',
        'gateway',
        'order',
        'e2e',
        'tools',
      ]),
    );
  });
});
