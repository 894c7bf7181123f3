import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseTarget } from '@consign/database';

/** Where the tests' PostgreSQL server is; the embedded database is used when it is unreachable. */
export const TEST_PG_ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Set by the global setup: "postgres" when the server answered, "pglite" otherwise. */
export const TEST_DB_MODE_ENV = 'CONSIGN_TEST_DB_MODE';
/** Set by the global setup: this jest run's id, so concurrent runs never touch each other's databases. */
export const TEST_RUN_ENV = 'CONSIGN_TEST_RUN';

/** Set in the unit tier's workers (libs/testing/src/jest/unit-tier.ts): unit tests open no database. */
export const TEST_TIER_ENV = 'CONSIGN_TEST_TIER';

export function testRunId(): string {
  return process.env[TEST_RUN_ENV] ?? 'local';
}

/** The migrated template database of this run. */
export function templateDatabase(): string {
  return `consign_tpl_${testRunId()}`;
}

/** Prefix of the per-file databases of this run. */
export function testDatabasePrefix(): string {
  return `consign_t_${testRunId()}_`;
}

export function testDatabaseMode(): 'postgres' | 'pglite' {
  return process.env[TEST_DB_MODE_ENV] === 'postgres' ? 'postgres' : 'pglite';
}

export function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  target: DatabaseTarget;
  /** The DATABASE_URL a child process should use, when the database is PostgreSQL. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file: a copy of the migrated template on PostgreSQL (immich's
 * CREATE DATABASE … TEMPLATE approach), or a new in-memory embedded database (always, with
 * `embedded`: for a spec that must hold on both).
 */
export async function createTestDatabase(
  options: { embedded?: boolean } = {},
): Promise<TestDatabase> {
  if (process.env[TEST_TIER_ENV] === 'unit')
    throw new Error(
      'A unit test opened a database: name the file *.int.spec.ts (the integration tier) instead.',
    );
  if (options.embedded || testDatabaseMode() === 'pglite') {
    return { target: { kind: 'pglite', dataDir: 'memory://' }, drop: async () => undefined };
  }
  const name = `${testDatabasePrefix()}${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`),
  );
  const url = databaseUrl(name);
  return {
    target: { kind: 'postgres', url, poolSize: 5 },
    url,
    drop: () =>
      withAdminClient((client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
}
