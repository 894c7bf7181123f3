import { Logger } from '@nestjs/common';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';

/** The work each open transaction is to start once it commits, by its query runner and key. */
const pending = new WeakMap<QueryRunner, Map<unknown, () => void>>();
/** The data sources whose commits the subscriber below sees. */
const watched = new WeakSet<DataSource>();
const logger = new Logger('AfterCommit');

const commits: EntitySubscriberInterface = {
  afterTransactionCommit: ({ queryRunner }: TransactionCommitEvent) => {
    // A savepoint released is not a commit: the rows are not visible before the outermost.
    if (queryRunner.isTransactionActive) return;
    const work = pending.get(queryRunner);
    if (!work) return;
    pending.delete(queryRunner);
    for (const run of work.values()) {
      try {
        run();
      } catch (error) {
        // The transaction is committed: its caller must not see a failure of what follows it.
        logger.error(`work after a commit failed: ${String(error)}`);
      }
    }
  },
  afterTransactionRollback: ({ queryRunner }: TransactionRollbackEvent) => {
    // A savepoint rolled back leaves the outer transaction, and what it is to start, standing.
    if (!queryRunner.isTransactionActive) pending.delete(queryRunner);
  },
};

/**
 * Starts `work` once the transaction `manager` is in has committed: its outermost commit (a
 * savepoint released is not one), never if it rolls back. This is how a background loop learns
 * that rows it must act on are now visible (an outbox's relay, the carrier sandbox), without the
 * use case that wrote them having to tell it. The same `key` noted again in one transaction
 * starts its work once (the first one noted). Work noted inside a savepoint that rolls back
 * still starts at the outer commit: for a nudge, one look too many. `work` runs inside TypeORM's
 * commit, so it only starts something (sets a flag, schedules a timer) and does not throw; a
 * throw is logged.
 *
 * Answers false, keeping nothing, when the manager is in no transaction: what it wrote is
 * committed already, and the caller starts the work itself if it needs to.
 */
export function afterCommit(manager: EntityManager, key: unknown, work: () => void): boolean {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return false;
  const dataSource = manager.connection;
  if (!watched.has(dataSource)) {
    watched.add(dataSource);
    dataSource.subscribers.push(commits);
  }
  const noted = pending.get(runner);
  if (!noted) pending.set(runner, new Map([[key, work]]));
  else if (!noted.has(key)) noted.set(key, work);
  return true;
}
