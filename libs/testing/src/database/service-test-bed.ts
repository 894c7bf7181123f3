import { DataSource } from 'typeorm';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { DatabaseHost, ServiceDatabaseOptions } from '@consign/database';
import { CommandLedger, Outbox } from '@consign/messaging';
import { createTestDatabase, TestDatabase } from './test-database';

/** One service as its integration spec wires it: its schema, a broker, its outbox and ledger. */
export interface ServiceTestBed {
  /** The service's DataSource, in its own schema of a fresh copy of the migrated template. */
  readonly dataSource: DataSource;
  /** An empty in-process broker: the spec registers the other services' answers on it. */
  readonly broker: InProcessBroker;
  /** The service's outbox, publishing to `broker`. */
  readonly outbox: Outbox;
  /** The service's command ledger. */
  readonly commands: CommandLedger;
}

/**
 * Opens a ServiceTestBed for `service` in a beforeAll (so call it before the spec's own hooks,
 * which may then use it) and closes and drops its database in an afterAll. Read the fields in
 * hooks and tests: they throw while the bed is not open.
 */
export function useServiceTestBed(service: ServiceDatabaseOptions): ServiceTestBed {
  let database: TestDatabase | undefined;
  let host: DatabaseHost | undefined;
  let bed: ServiceTestBed | undefined;
  const open = (): ServiceTestBed => {
    if (!bed) throw new Error(`the ${service.name} test bed is open only in hooks and tests`);
    return bed;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    const dataSource = await host.openServiceDataSource(service);
    const broker = new InProcessBroker();
    bed = {
      dataSource,
      broker,
      outbox: new Outbox(dataSource, new InProcessClient(broker), service.schema),
      commands: new CommandLedger(dataSource, service.schema),
    };
  });

  afterAll(async () => {
    bed = undefined;
    await host?.close();
    await database?.drop();
  });

  return {
    get dataSource() {
      return open().dataSource;
    },
    get broker() {
      return open().broker;
    },
    get outbox() {
      return open().outbox;
    },
    get commands() {
      return open().commands;
    },
  };
}
