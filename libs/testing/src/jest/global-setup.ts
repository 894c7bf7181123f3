import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type * as DatabaseLibrary from '@consign/database';
import type { ServiceDatabaseOptions } from '@consign/database';
import type * as TestingLibrary from '../index';

const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');

/*
 * Jest's path aliases do not apply in a global setup or teardown: they load the build. The
 * imports above are type-only, erased from the build, so nothing of the sources is loaded here.
 */
const built = <T>(path: string): T =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled library, see above
  require(join(REPO_ROOT, 'dist', path)) as T;

export const builtDatabase = () => built<typeof DatabaseLibrary>('libs/database/src/index.js');
export const builtTesting = () => built<typeof TestingLibrary>('libs/testing/src/index.js');

/**
 * The integration and end-to-end tiers' global setup, once per jest run however many tiers run:
 * build the repository (the end-to-end suites run the apps as processes; the template below is
 * migrated by the built libraries) and, when PostgreSQL is reachable, migrate every service
 * schema into a template database that each test file clones. Migrations are always exercised:
 * here, on each in-memory embedded database of the integration tier, and in the embedded data
 * folder the end-to-end deployments copy (made by `admin migrate` on first use:
 * e2e/embedded-template.ts). The unit tier has no global setup.
 */
export default async function globalSetup(): Promise<void> {
  const testing = builtTestingAfterBuild();
  if (process.env[testing.TEST_RUN_ENV]) return; // the other tier's setup already ran
  process.env[testing.TEST_RUN_ENV] = randomBytes(4).toString('hex');
  const reachable = await testing
    .withAdminClient(async (client) => {
      await client.query(`CREATE DATABASE "${testing.templateDatabase()}"`);
      return true;
    })
    .catch(() => false);
  process.env[testing.TEST_DB_MODE_ENV] = reachable ? 'postgres' : 'pglite';
  if (!reachable) {
    process.stdout.write('\nPostgreSQL is not reachable: tests use the embedded database.\n');
    return;
  }
  // Every service's database (apps/e2e: the test helpers import no service library).
  const { ALL_SERVICE_DATABASES } = built<{ ALL_SERVICE_DATABASES: ServiceDatabaseOptions[] }>(
    'apps/e2e/src/service-databases.js',
  );
  const database = builtDatabase();
  const host = new database.DatabaseHost({
    kind: 'postgres',
    url: testing.databaseUrl(testing.templateDatabase()),
    poolSize: 2,
  });
  try {
    for (const options of ALL_SERVICE_DATABASES) await host.openServiceDataSource(options);
  } finally {
    await host.close();
  }
}

let builtOnce = false;

function builtTestingAfterBuild(): typeof TestingLibrary {
  if (!builtOnce)
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: REPO_ROOT });
  builtOnce = true;
  return builtTesting();
}
