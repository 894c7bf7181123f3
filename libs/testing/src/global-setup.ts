import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { DatabaseHost } from '@consign/platform';
import type { ServiceDatabaseOptions } from '@consign/platform';
import {
  TEST_DB_MODE_ENV,
  TEST_RUN_ENV,
  databaseUrl,
  templateDatabase,
  withAdminClient,
} from './test-database';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/**
 * Once per jest run: build the apps (the end-to-end suites run them as processes) and, when
 * PostgreSQL is reachable, migrate every service schema into a template database that each test
 * file clones. Migrations are always exercised: here, or on each embedded database.
 *
 * Jest's path aliases do not apply in a global setup, so the migrations are loaded from the build.
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: REPO_ROOT });
  process.env[TEST_RUN_ENV] = randomBytes(4).toString('hex');
  const reachable = await withAdminClient(async (client) => {
    await client.query(`CREATE DATABASE "${templateDatabase()}"`);
    return true;
  }).catch(() => false);
  process.env[TEST_DB_MODE_ENV] = reachable ? 'postgres' : 'pglite';
  if (!reachable) {
    process.stdout.write('\nPostgreSQL is not reachable: tests use the embedded database.\n');
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads the build, see above
  const built = (path: string): unknown => require(join(REPO_ROOT, 'dist', path));
  const { DatabaseHost: Host } = built('libs/platform/src/database/database-host.js') as {
    DatabaseHost: typeof DatabaseHost;
  };
  const { ALL_SERVICE_DATABASES } = built('libs/testing/src/service-databases.js') as {
    ALL_SERVICE_DATABASES: ServiceDatabaseOptions[];
  };
  const host = new Host({ kind: 'postgres', url: databaseUrl(templateDatabase()), poolSize: 2 });
  try {
    for (const options of ALL_SERVICE_DATABASES) await host.openServiceDataSource(options);
  } finally {
    await host.close();
  }
}
