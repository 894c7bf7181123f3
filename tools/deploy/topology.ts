import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DISTRIBUTED_SERVICES } from '@consign/testing';

/** What the deployment files (docker-compose.yml, Dockerfile, k8s/) are checked against. */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/** The long-running processes of the distributed topology: a compose service and a Deployment each. */
export const DISTRIBUTED_APPS = ['api-gateway', ...DISTRIBUTED_SERVICES] as const;
export type DistributedApp = (typeof DISTRIBUTED_APPS)[number];

/** The other folders of apps/, and why they are not deployed as long-running processes. */
export const NOT_DEPLOYED_APPS: Record<string, string> = {
  admin: 'operator CLI; its `migrate` command is the one-shot migration step',
  'carrier-cli': 'operator CLI that publishes carrier events by hand',
  standalone: 'every service in one process, for a single machine (the image default)',
  e2e: 'the end-to-end test suites',
};

/** The port every app listens on (PORT, default 3000) and the agreed health paths. */
export const APP_PORT = 3000;
export const LIVENESS_PATH = '/health/live';
export const READINESS_PATH = '/health/ready';

/** The image's command for an app: its built entry point. */
export function appCommand(app: string, ...args: string[]): string[] {
  return ['node', `dist/apps/${app}/src/main.js`, ...args];
}

/** The app folder (apps/<folder>) whose build produces a command's entry point, or undefined. */
export function appOfCommand(command: unknown): string | undefined {
  if (!Array.isArray(command) || command[0] !== 'node') return undefined;
  const match = /^dist\/apps\/([a-z0-9-]+)\/src\/main\.js$/.exec(String(command[1]));
  return match?.[1];
}

export function appFolders(): string[] {
  return readdirSync(join(REPO_ROOT, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export interface ProjectJson {
  name: string;
  tags?: string[];
  targets?: Record<string, unknown>;
}

export function projectJsonOf(root: string): ProjectJson {
  return JSON.parse(readFileSync(join(REPO_ROOT, root, 'project.json'), 'utf8')) as ProjectJson;
}

/** Whether `apps/<app>/src/main.ts` exists: the source of `dist/apps/<app>/src/main.js`. */
export function appEntryExists(app: string): boolean {
  return existsSync(join(REPO_ROOT, 'apps', app, 'src', 'main.ts'));
}
