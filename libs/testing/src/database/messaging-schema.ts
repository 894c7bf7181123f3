import { DataSource } from 'typeorm';
import { DatabaseHost } from '@consign/database';
import { resolveServiceDatabase } from '@consign/messaging';
import { createTestDatabase } from './test-database';

/** A test database holding one service schema with the messaging tables, for the messaging specs. */
export interface MessagingSchema {
  dataSource: DataSource;
  /** Empties the outbox, the inbox and the dead letters. */
  truncate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates a test database and migrates `schema` (outbox, inbox, dead letters) into it: the tests'
 * database (PostgreSQL when it answers), or with `embedded` an in-memory PGlite in any case, for
 * a spec that must hold on both.
 */
export async function openMessagingSchema(
  name: string,
  schema: string,
  options: { embedded?: boolean } = {},
): Promise<MessagingSchema> {
  const database = await createTestDatabase(options);
  const host = new DatabaseHost(database.target);
  const dataSource = await host.openServiceDataSource(
    resolveServiceDatabase({ name, schema, entities: [], migrations: [] }),
  );
  return {
    dataSource,
    truncate: async () => {
      await dataSource.query(
        `TRUNCATE "${schema}"."outbox_event", "${schema}"."inbox_message", "${schema}"."dead_letter"`,
      );
    },
    close: async () => {
      await host.close();
      await database.drop();
    },
  };
}
