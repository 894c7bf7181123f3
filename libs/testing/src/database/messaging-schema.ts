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

/** Creates a test database and migrates `schema` (outbox, inbox, dead letters) into it. */
export async function openMessagingSchema(name: string, schema: string): Promise<MessagingSchema> {
  const database = await createTestDatabase();
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
