import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DISTRIBUTED_APPS,
  NOT_DEPLOYED_APPS,
  REPO_ROOT,
  appCommand,
  appEntryExists,
  appFolders,
  projectJsonOf,
} from './topology';

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages and their instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (!keyword) throw new Error(`cannot read Dockerfile line: ${line}`);
    if (keyword.toUpperCase() === 'FROM') {
      const [, from, name] = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name: name ?? String(stages.length), from, instructions: [] });
    } else if (stages.length) {
      stages[stages.length - 1].instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** .dockerignore patterns as matchers of a context path (a pattern also excludes what is under it). */
function dockerignore(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => {
      const regex = pattern
        .split('**/')
        .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
        .join('(.*/)?');
      return new RegExp(`^${regex}(/.*)?$`);
    });
  return (path) => patterns.some((pattern) => pattern.test(path));
}

function runs(stage: Stage): string[] {
  return stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
}

describe('Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
  const ignored = dockerignore(readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8'));
  const runtime = stages[stages.length - 1];
  const stageNamed = (name: string) => stages.find((stage) => stage.name === name);

  it('classifies every app: deployed as a process, or why not', () => {
    expect(appFolders()).toEqual([...DISTRIBUTED_APPS, ...Object.keys(NOT_DEPLOYED_APPS)].sort());
  });

  it('installs dependencies from the lockfile with npm ci', () => {
    for (const stage of stages.filter((s) => runs(s).some((r) => r.includes('npm ci')))) {
      const copies = stage.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
      expect(copies[0]).toBe('package.json package-lock.json ./');
    }
    expect(runs(stages.find((s) => s.name === 'deps')!)).toEqual([
      expect.stringMatching(/npm ci$/),
    ]);
  });

  it('builds every deployed app with its Nx build target', () => {
    const build = stageNamed('build')!;
    expect(runs(build)).toEqual([
      expect.stringContaining('nx run-many --target=build --projects=tag:scope:app'),
    ]);
    const nx = JSON.parse(readFileSync(join(REPO_ROOT, 'nx.json'), 'utf8')) as {
      targetDefaults: { build: { dependsOn: string[]; options: { command: string } } };
    };
    expect(nx.targetDefaults.build.dependsOn).toEqual(['^build']);
    expect(nx.targetDefaults.build.options.command).toMatch(/^swc \{projectRoot\}\/src -d dist /);
    for (const app of [...DISTRIBUTED_APPS, 'admin']) {
      const project = projectJsonOf(`apps/${app}`);
      expect({ app, tags: project.tags, build: project.targets?.build !== undefined }).toEqual({
        app,
        tags: ['scope:app'],
        build: true,
      });
    }
  });

  it('gives every library an app imports a build target', () => {
    for (const lib of [
      'contracts',
      'core',
      'config',
      'observability',
      'database',
      'bus',
      'messaging',
      'platform',
      'gateway',
      'catalog',
      'rating',
      'order',
      'inbound',
      'label-tracking',
      'carrier-sandbox',
    ]) {
      expect({ lib, build: projectJsonOf(`libs/${lib}`).targets?.build !== undefined }).toEqual({
        lib,
        build: true,
      });
    }
  });

  it('ships production dependencies only, as a non-root user, in production mode', () => {
    const copies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    const nodeModules = copies.find((c) => c.endsWith('/app/node_modules ./node_modules'));
    const from = /--from=(\S+)/.exec(nodeModules ?? '')?.[1];
    expect(runs(stageNamed(from ?? '')!)).toEqual([
      expect.stringMatching(/npm ci --omit=dev --omit=optional$/),
    ]);
    expect(runtime.instructions).toContainEqual({ keyword: 'ENV', args: 'NODE_ENV=production' });
    const users = runtime.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatch(/^[1-9]\d*:[1-9]\d*$/);
  });

  it('copies only from earlier stages and from context files that .dockerignore keeps', () => {
    const seen: string[] = [];
    for (const stage of stages) {
      // A stage starts from an image (a name with a tag, or the NODE_IMAGE argument) or an earlier stage.
      if (!/[:/]|^\$\{/.test(stage.from)) expect(seen).toContain(stage.from);
      for (const { keyword, args } of stage.instructions.filter((i) => i.keyword === 'COPY')) {
        const from = /--from=(\S+)/.exec(args)?.[1];
        if (from) {
          expect(seen).toContain(from);
          continue;
        }
        const sources = args.split(/\s+/).slice(0, -1);
        for (const source of sources) {
          expect({ keyword, source, exists: existsSync(join(REPO_ROOT, source)) }).toEqual({
            keyword,
            source,
            exists: true,
          });
          expect({ source, ignored: ignored(source) }).toEqual({ source, ignored: false });
        }
      }
      seen.push(stage.name);
    }
  });

  it('keeps the sources the build needs in the context and leaves out what it must not see', () => {
    const needed = [
      'nx.json',
      '.swcrc',
      'libs/platform/src/index.ts',
      'libs/rating/rate-cards',
      'docs/openapi.json',
      ...DISTRIBUTED_APPS.map((app) => `apps/${app}/src/main.ts`),
      'apps/admin/src/main.ts',
    ];
    expect(needed.filter(ignored)).toEqual([]);
    expect(
      [
        'node_modules',
        'dist',
        '.git',
        'libs/platform/node_modules',
        'apps/admin/src/migrate.e2e.spec.ts',
      ].filter((path) => !ignored(path)),
    ).toEqual([]);
  });

  it('starts the standalone app unless a command picks another', () => {
    const cmd = runtime.instructions.find((i) => i.keyword === 'CMD');
    expect(JSON.parse(cmd!.args)).toEqual(appCommand('standalone'));
    expect(appEntryExists('standalone')).toBe(true);
  });
});
