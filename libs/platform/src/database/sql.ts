import type { EntityManager } from 'typeorm';

/** A DataSource or a transaction's EntityManager: anything that runs SQL. */
export type Sql = Pick<EntityManager, 'query'>;
