import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type * as PlatformLibrary from '@consign/platform';
import type { ServiceDatabaseOptions } from '@consign/platform';
import type * as TestingLibrary from '@consign/testing';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');

// Type-only imports: erased from the build, so nothing of the sources is loaded here.
type Platform = typeof PlatformLibrary;
type Testing = typeof TestingLibrary;

/** Jest's path aliases do not apply in a global setup or teardown: they load the build. */
export function builtPlatform(): Platform {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled library, see above
  return require(join(REPO_ROOT, 'dist/libs/platform/src/index.js')) as Platform;
}

export function builtTesting(): Testing {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled library, see above
  return require(join(REPO_ROOT, 'dist/libs/testing/src/index.js')) as Testing;
}

/**
 * Once per jest run: build the apps (the end-to-end suites run them as processes) and, when
 * PostgreSQL is reachable, migrate every service schema into a template database that each test
 * file clones. Migrations are always exercised: here, or on each embedded database.
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: REPO_ROOT });
  const platform = builtPlatform();
  process.env[platform.TEST_RUN_ENV] = randomBytes(4).toString('hex');
  const reachable = await platform
    .withAdminClient(async (client) => {
      await client.query(`CREATE DATABASE "${platform.templateDatabase()}"`);
      return true;
    })
    .catch(() => false);
  process.env[platform.TEST_DB_MODE_ENV] = reachable ? 'postgres' : 'pglite';
  if (!reachable) {
    process.stdout.write('\nPostgreSQL is not reachable: tests use the embedded database.\n');
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled registry, see above
  const { ALL_SERVICE_DATABASES } = require(
    join(REPO_ROOT, 'dist/apps/e2e/src/service-databases.js'),
  ) as {
    ALL_SERVICE_DATABASES: ServiceDatabaseOptions[];
  };
  const host = new platform.DatabaseHost({
    kind: 'postgres',
    url: platform.databaseUrl(platform.templateDatabase()),
    poolSize: 2,
  });
  try {
    for (const options of ALL_SERVICE_DATABASES) await host.openServiceDataSource(options);
  } finally {
    await host.close();
  }
}
