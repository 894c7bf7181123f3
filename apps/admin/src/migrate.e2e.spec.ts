import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import * as carrierSandbox from '@consign/carrier-sandbox';
import * as catalog from '@consign/catalog';
import * as gateway from '@consign/gateway';
import * as inbound from '@consign/inbound';
import * as labelTracking from '@consign/label-tracking';
import * as order from '@consign/order';
import * as rating from '@consign/rating';
import * as webhook from '@consign/webhook';
import { DatabaseTarget } from '@consign/database';
import { ServiceDatabase } from '@consign/messaging';
import { MIGRATED_DATABASES, migrateAll } from './migrate';
import {
  databaseUrl,
  testDatabaseMode,
  testDatabasePrefix,
  withAdminClient,
} from '@consign/testing';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');

function isServiceDatabase(value: unknown): value is ServiceDatabase {
  const candidate = value as Partial<ServiceDatabase> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.dataSource === 'symbol' &&
    typeof candidate.options?.schema === 'string'
  );
}

/** An empty database (not the migrated template): what a first deployment starts from. */
async function emptyDatabase(): Promise<{
  target: DatabaseTarget;
  env: NodeJS.ProcessEnv;
  drop(): Promise<void>;
}> {
  if (testDatabaseMode() === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'consign-migrate-'));
    return {
      target: { kind: 'pglite', dataDir: join(dataDir, 'pgdata') },
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `${testDatabasePrefix()}migrate_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(name);
  return {
    target: { kind: 'postgres', url },
    env: { DATABASE_URL: url },
    drop: async () => {
      await withAdminClient((client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

describe('admin migrate', () => {
  it('covers the schema of every service database the libraries define', () => {
    const defined = [
      carrierSandbox,
      catalog,
      gateway,
      inbound,
      labelTracking,
      order,
      rating,
      webhook,
    ]
      .flatMap((lib) => Object.values(lib).filter(isServiceDatabase))
      .map((database) => database.options.schema)
      .sort();
    expect(defined.length).toBeGreaterThan(0);
    expect(MIGRATED_DATABASES.map((options) => options.schema).sort()).toEqual(defined);
  });

  it('migrates an empty database once; a second run applies nothing new', async () => {
    const database = await emptyDatabase();
    try {
      const first = await migrateAll(database.target);
      expect(first).toEqual(
        MIGRATED_DATABASES.map((options) => ({
          schema: options.schema,
          applied: (options.migrations as unknown[]).length,
        })),
      );
      expect(await migrateAll(database.target)).toEqual(first);
    } finally {
      await database.drop();
    }
  });

  it('runs as the `migrate` command of the built admin app, without a broker', async () => {
    const database = await emptyDatabase();
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(REPO_ROOT, 'dist/apps/admin/src/main.js'), 'migrate'],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, KAFKA_BROKERS: 'unreachable:9092', ...database.env },
        },
      );
      // The database host also logs what it applied; the summary is one line per schema.
      const summary = stdout.split('\n').filter((line) => / migrations applied$/.test(line));
      expect(summary).toEqual(
        MIGRATED_DATABASES.map(
          (options) =>
            `${options.schema}: ${(options.migrations as unknown[]).length} migrations applied`,
        ),
      );
    } finally {
      await database.drop();
    }
  });
});
