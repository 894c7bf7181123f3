import {
  templateDatabase,
  testDatabaseMode,
  testDatabasePrefix,
  withAdminClient,
} from './test-database';

/** Drops this run's template and every database cloned from it (and only those). */
export default async function globalTeardown(): Promise<void> {
  if (testDatabaseMode() !== 'postgres') return;
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR datname = $2`,
      [testDatabasePrefix(), templateDatabase()],
    );
    for (const row of rows)
      await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  }).catch(() => undefined);
}
