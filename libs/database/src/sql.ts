import type { EntityManager } from 'typeorm';

/** A DataSource or a transaction's EntityManager: anything that runs SQL. */
export type Sql = Pick<EntityManager, 'query'>;

/** Runs a DELETE and resolves with how many rows it deleted (TypeORM answers one with [rows, count]). */
export async function deleteRows(sql: Sql, text: string, parameters?: unknown[]): Promise<number> {
  const [, deleted] = (await sql.query(text, parameters)) as [unknown, number];
  return deleted;
}

/**
 * Runs `deleteBatch`, which deletes at most `batch` rows and says how many, until a batch comes
 * back short; resolves with the total. Short statements and short locks, however much is due.
 */
export async function deleteInBatches(
  batch: number,
  deleteBatch: () => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < batch) return total;
  }
}
