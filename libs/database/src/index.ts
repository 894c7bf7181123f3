export { afterCommit } from './after-commit';
export { concurrentTransactions, DatabaseHost } from './database-host';
export type { DatabaseTarget, ServiceDatabaseOptions } from './database-host';
export { DataDirInUseError, lockDataDir } from './data-dir-lock';
export { DATABASE_HOST } from './database.tokens';
export { deleteInBatches, deleteRows } from './sql';
export { SOLE_WRITER_POLL_MS, soleWriterSleepMs } from './sole-writer';
export type { Sql } from './sql';
