import { builtPlatform, builtTesting } from './global-setup';

const reapMokapiBrokers = () => builtTesting().reapMokapiBrokers();

/** Stops test brokers a killed run left behind; drops this run's template and every database cloned from it (and only those). */
export default async function globalTeardown(): Promise<void> {
  await reapMokapiBrokers();
  const platform = builtPlatform();
  if (platform.testDatabaseMode() !== 'postgres') return;
  await platform
    .withAdminClient(async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR datname = $2`,
        [platform.testDatabasePrefix(), platform.templateDatabase()],
      );
      for (const row of rows)
        await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    })
    .catch(() => undefined);
}
