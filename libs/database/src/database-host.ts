import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { DataSource, DataSourceOptions, MixedList } from 'typeorm';
import { consignPgTypes } from './pg-types';
import { PgliteSession } from './pglite-session';
import { lockDataDir } from './data-dir-lock';

/** What a service needs to open its own DataSource in its own schema. */
export interface ServiceDatabaseOptions {
  /** Short service name, used for the connection's application_name. */
  name: string;
  /** The Postgres schema the service owns; its migrations table lives there too. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
}

export type DatabaseTarget =
  { kind: 'postgres'; url: string; poolSize?: number } | { kind: 'pglite'; dataDir: string };

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Owns the physical database of one process: a PostgreSQL URL, or one embedded PGlite instance
 * shared by every service of a standalone process (PGlite is one backend; one process may own a
 * data directory). Opens one DataSource per service, creates the service's schema, runs its
 * migrations, and closes everything in order on shutdown.
 */
export class DatabaseHost {
  private readonly logger = new Logger('Database');
  private readonly dataSources: DataSource[] = [];
  private pglite?: PGlite;
  /** The embedded backend's one session, taken in turn by every service's connection. */
  private pgliteSession?: PgliteSession;
  private unlockDataDir?: () => void;
  /** Opening is serialised: on PGlite, one service's migration transaction would block another's queries. */
  private opening: Promise<unknown> = Promise.resolve();

  /** `owner` names this process in the lock of an embedded data folder. */
  constructor(
    readonly target: DatabaseTarget,
    private readonly owner: string = 'a Consign process',
  ) {}

  get description(): string {
    return this.target.kind === 'postgres'
      ? `PostgreSQL ${redactUrl(this.target.url)}`
      : `embedded PostgreSQL (PGlite) in ${this.target.dataDir}`;
  }

  /**
   * Whether no other process can write to this database while this one runs: the embedded
   * database (its data folder's lock keeps every other process out; an in-memory one is this
   * process's own). What only another process could change then needs no polling.
   */
  get exclusive(): boolean {
    return this.target.kind === 'pglite';
  }

  openServiceDataSource(options: ServiceDatabaseOptions): Promise<DataSource> {
    const opened = this.opening.then(() => this.open(options));
    this.opening = opened.catch(() => undefined);
    return opened;
  }

  private async open(options: ServiceDatabaseOptions): Promise<DataSource> {
    if (!SCHEMA_NAME.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
    const base = {
      type: 'postgres',
      schema: options.schema,
      entities: options.entities,
      migrations: options.migrations,
      migrationsTableName: 'migration',
      synchronize: false,
      migrationsRun: false,
      applicationName: `consign-${options.name}`,
    } as const;
    let dataSourceOptions: DataSourceOptions;
    if (this.target.kind === 'postgres') {
      dataSourceOptions = {
        ...base,
        url: this.target.url,
        extra: {
          max: this.target.poolSize ?? 10,
          types: consignPgTypes,
          connectionTimeoutMillis: 10000,
        },
      };
    } else {
      const session = await this.openPglite();
      dataSourceOptions = {
        ...base,
        extra: {
          ...PGLITE_CLIENT_FIELDS,
          connection: session.connection(options.name),
          max: 1,
          types: consignPgTypes,
        },
      };
    }
    const dataSource = new DataSource(dataSourceOptions);
    await dataSource.initialize();
    this.dataSources.push(dataSource);
    await this.migrate(dataSource, options.schema);
    return dataSource;
  }

  /** Schema creation and migrations, serialised across processes by an advisory lock. */
  private async migrate(dataSource: DataSource, schema: string): Promise<void> {
    if (this.target.kind === 'pglite') {
      // One process owns a PGlite directory, and its single connection cannot hold a lock
      // while the migrations run on it.
      await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await dataSource.runMigrations({ transaction: 'each' });
      return;
    }
    const lock = dataSource.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`consign:migrate:${schema}`]);
      await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      if (applied.length)
        this.logger.log(`${schema}: applied ${applied.map((m) => m.name).join(', ')}`);
    } finally {
      await lock
        .query('SELECT pg_advisory_unlock(hashtext($1))', [`consign:migrate:${schema}`])
        .catch(() => undefined);
      await lock.release();
    }
  }

  private async openPglite(): Promise<PgliteSession> {
    if (this.target.kind !== 'pglite') throw new Error('not an embedded database');
    if (!this.pglite || !this.pgliteSession) {
      const { dataDir } = this.target;
      if (dataDir.startsWith('memory://')) {
        this.pglite = new PGlite(dataDir);
      } else {
        const dir = resolve(dataDir);
        // Before anything is written: a second process on a live folder stops here.
        this.unlockDataDir ??= lockDataDir(dir, this.owner);
        if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
        this.pglite = new PGlite(dir);
      }
      await this.pglite.waitReady;
      this.pgliteSession = new PgliteSession(this.pglite);
    }
    return this.pgliteSession;
  }

  /**
   * A cheap round trip on every open DataSource of the process (`SELECT 1`), for readiness.
   * Resolves with how many answered; rejects with the first failure.
   */
  async ping(): Promise<number> {
    const open = this.dataSources.filter((dataSource) => dataSource.isInitialized);
    if (this.target.kind === 'pglite') {
      // One embedded database behind every DataSource, one at a time: one round trip tells.
      if (open.length > 0) await open[0].query('SELECT 1');
      return open.length;
    }
    await Promise.all(open.map((dataSource) => dataSource.query('SELECT 1')));
    return open.length;
  }

  async close(): Promise<void> {
    for (const dataSource of this.dataSources.splice(0).reverse()) {
      if (dataSource.isInitialized) await dataSource.destroy();
    }
    if (this.pglite) {
      const pglite = this.pglite;
      this.pglite = undefined;
      this.pgliteSession = undefined;
      if (!pglite.closed) await pglite.close();
    }
    this.unlockDataDir?.();
    this.unlockDataDir = undefined;
  }
}

/**
 * How many transactions of this DataSource can be open at once: its pool size. One for the
 * embedded database (PGlite is one backend: a second connection used while a transaction is
 * open waits for it forever), so work that would run transactions side by side must not.
 */
export function concurrentTransactions(dataSource: DataSource): number {
  const extra: unknown = (dataSource.options as { extra?: unknown }).extra;
  const max =
    typeof extra === 'object' && extra !== null ? (extra as { max?: unknown }).max : undefined;
  // pg's Pool defaults to 10 connections.
  return typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : 10;
}

/** What pg's Client asks of a server it does not really dial: PGlite accepts any of it. */
const PGLITE_CLIENT_FIELDS = {
  user: 'postgres',
  password: 'dummy',
  database: 'postgres',
  host: 'localhost',
  port: 5432,
} as const;

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
