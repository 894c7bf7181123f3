import { Sql } from '@consign/database';

/**
 * The two tables of secrets the gateway keeps (API keys, carrier credentials): each row a secret
 * stored as its SHA-256 `key_hash`, revoked by setting `revoked_at`. What their repositories do
 * alike is written here once.
 */

/** A stored secret to look up: by its id or by its hash. */
export type SecretLookup = { id: number } | { keyHash: string };

/** The condition that picks a looked-up secret, and its one parameter ($1). */
function where(lookup: SecretLookup): [string, number | string] {
  return 'id' in lookup ? ['id = $1', lookup.id] : ['key_hash = $1', lookup.keyHash];
}

/** The secret's row (`columns` of `table`), revoked or not; undefined when there is none. */
export async function findSecret<T>(
  sql: Sql,
  table: string,
  columns: string,
  lookup: SecretLookup,
): Promise<T | undefined> {
  const [condition, parameter] = where(lookup);
  const [row] = (await sql.query(`SELECT ${columns} FROM ${table} WHERE ${condition} LIMIT 1`, [
    parameter,
  ])) as T[];
  return row;
}

/**
 * Revokes the secret unless it is revoked already, at the database's time (which the gateways'
 * revocation watchers compare with); answers how many it revoked (0 or 1).
 */
export async function revokeSecret(sql: Sql, table: string, lookup: SecretLookup): Promise<number> {
  const [condition, parameter] = where(lookup);
  // TypeORM answers an UPDATE with [rows, count].
  const [, changed] = (await sql.query(
    `UPDATE ${table} SET revoked_at = now() WHERE ${condition} AND revoked_at IS NULL`,
    [parameter],
  )) as [unknown, number];
  return changed;
}
