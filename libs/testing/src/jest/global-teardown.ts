import { builtTesting } from './global-setup';

/**
 * Stops test brokers a killed run left behind; removes this run's embedded template, drops its
 * template database and every database cloned from it (and only those). Safe to run once per tier.
 */
export default async function globalTeardown(): Promise<void> {
  const testing = builtTesting();
  await testing.reapMokapiBrokers();
  testing.removeEmbeddedTemplate();
  if (testing.testDatabaseMode() !== 'postgres') return;
  await testing
    .withAdminClient(async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR datname = $2`,
        [testing.testDatabasePrefix(), testing.templateDatabase()],
      );
      for (const row of rows)
        await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    })
    .catch(() => undefined);
}
