import { Injectable } from '@nestjs/common';
import { ApiKeyRole } from '@consign/contracts';
import { Sql } from '@consign/database';
import { GATEWAY_SCHEMA } from './gateway.database';
import { SecretLookup, findSecret, revokeSecret } from './secret-table';

const API_KEY = `"${GATEWAY_SCHEMA}"."api_key"`;
const CARRIER_CREDENTIAL = `"${GATEWAY_SCHEMA}"."carrier_credential"`;
const COLUMNS = `id, merchant_id AS "merchantId", key_hash AS "keyHash", prefix, role,
  created_at AS "createdAt", revoked_at AS "revokedAt"`;

/** An API key, stored as its SHA-256 hash; the key itself is shown once, when issued. */
export interface ApiKeyRecord {
  id: number;
  /** The merchant account the key acts for; null for an admin key, which acts for none. */
  merchantId: number | null;
  keyHash: string;
  /** The first characters of the key, to recognise it in listings without revealing it. */
  prefix: string;
  role: ApiKeyRole;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Key hashes created or revoked lately, and the database's time of the look. */
export interface KeyChanges {
  now: Date;
  keys: string[] | null;
  credentials: string[] | null;
}

/** An API key to look up: by its id or by its hash. */
export type ApiKeyLookup = SecretLookup;

/** SQL of the API-key aggregate (gateway.api_key). */
@Injectable()
export class ApiKeyRepository {
  /** Who a key hash acts for, revoked or not; undefined for an unknown hash. */
  async principalOf(
    sql: Sql,
    keyHash: string,
  ): Promise<Pick<ApiKeyRecord, 'merchantId' | 'role' | 'revokedAt'> | undefined> {
    const [row] = (await sql.query(
      `SELECT merchant_id AS "merchantId", role, revoked_at AS "revokedAt" FROM ${API_KEY}
        WHERE key_hash = $1 LIMIT 1`,
      [keyHash],
    )) as Pick<ApiKeyRecord, 'merchantId' | 'role' | 'revokedAt'>[];
    return row;
  }

  async insert(
    sql: Sql,
    key: { merchantId: number | null; keyHash: string; prefix: string; role: ApiKeyRole },
  ): Promise<ApiKeyRecord> {
    const [row] = (await sql.query(
      `INSERT INTO ${API_KEY} (merchant_id, key_hash, prefix, role) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}`,
      [key.merchantId, key.keyHash, key.prefix, key.role],
    )) as ApiKeyRecord[];
    return row;
  }

  find(sql: Sql, lookup: ApiKeyLookup): Promise<ApiKeyRecord | undefined> {
    return findSecret<ApiKeyRecord>(sql, API_KEY, COLUMNS, lookup);
  }

  async exists(sql: Sql, keyHash: string): Promise<boolean> {
    const [row] = (await sql.query(
      `SELECT EXISTS (SELECT 1 FROM ${API_KEY} WHERE key_hash = $1) AS "exists"`,
      [keyHash],
    )) as { exists: boolean }[];
    return row.exists;
  }

  /** Whether an admin key that is not revoked exists. */
  async activeAdminExists(sql: Sql): Promise<boolean> {
    const [row] = (await sql.query(
      `SELECT EXISTS (SELECT 1 FROM ${API_KEY} WHERE role = $1 AND revoked_at IS NULL) AS "exists"`,
      [ApiKeyRole.Admin],
    )) as { exists: boolean }[];
    return row.exists;
  }

  /**
   * Locks every admin key that is not revoked (in id order) until the caller's transaction ends,
   * and answers how many there are besides the one with this id. Of two transactions revoking the
   * last two admin keys, the second waits here for the first and then no longer counts the key
   * the first revoked (PostgreSQL reads a locked row again once its writer commits).
   */
  async lockOtherActiveAdmins(sql: Sql, id: number): Promise<number> {
    const rows = (await sql.query(
      `SELECT id FROM ${API_KEY} WHERE role = $1 AND revoked_at IS NULL ORDER BY id FOR UPDATE`,
      [ApiKeyRole.Admin],
    )) as { id: number }[];
    return rows.filter((row) => Number(row.id) !== id).length;
  }

  /** Revokes the key unless it is revoked already (revokeSecret); 0 or 1. */
  revoke(sql: Sql, lookup: ApiKeyLookup): Promise<number> {
    return revokeSecret(sql, API_KEY, lookup);
  }

  /** One page, newest first (of one merchant's keys, or all), and how many there are. */
  async page(
    sql: Sql,
    merchantId: number | undefined,
    offset: number,
    limit: number,
  ): Promise<[ApiKeyRecord[], number]> {
    const rows = (await sql.query(
      `SELECT ${COLUMNS} FROM ${API_KEY} WHERE ($1::bigint IS NULL OR merchant_id = $1)
        ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [merchantId ?? null, limit, offset],
    )) as ApiKeyRecord[];
    const [{ total }] = (await sql.query(
      `SELECT count(*) AS total FROM ${API_KEY} WHERE ($1::bigint IS NULL OR merchant_id = $1)`,
      [merchantId ?? null],
    )) as { total: number }[];
    return [rows, total];
  }

  /**
   * The hashes of API keys and carrier credentials created or revoked less than `overlapSeconds`
   * before `since` or later, with the database's time: one indexed statement per look.
   */
  async changedSince(sql: Sql, since: Date, overlapSeconds: number): Promise<KeyChanges> {
    const [changes] = (await sql.query(
      `SELECT now() AS now,
         (SELECT json_agg(key_hash) FROM ${API_KEY}
           WHERE GREATEST(created_at, revoked_at) > $1::timestamptz - make_interval(secs => $2)) AS keys,
         (SELECT json_agg(key_hash) FROM ${CARRIER_CREDENTIAL}
           WHERE GREATEST(created_at, revoked_at) > $1::timestamptz - make_interval(secs => $2)) AS credentials`,
      [since, overlapSeconds],
    )) as KeyChanges[];
    return changes;
  }
}
