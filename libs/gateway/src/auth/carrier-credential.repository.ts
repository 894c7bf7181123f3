import { Injectable } from '@nestjs/common';
import { Sql } from '@consign/database';
import { GATEWAY_SCHEMA } from './gateway.database';
import { SecretLookup, findSecret, revokeSecret } from './secret-table';

const CARRIER_CREDENTIAL = `"${GATEWAY_SCHEMA}"."carrier_credential"`;
const COLUMNS = `id, carrier_code AS "carrierCode", key_hash AS "keyHash", prefix,
  created_at AS "createdAt", revoked_at AS "revokedAt"`;

/**
 * A carrier's credential for the webhook ingestion endpoint, stored as its SHA-256 hash. Carriers
 * are not merchants: a credential names the carrier it reports for, and nothing else.
 */
export interface CarrierCredentialRecord {
  id: number;
  carrierCode: string;
  keyHash: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A credential to look up: by its id or by its hash. */
export type CarrierCredentialLookup = SecretLookup;

/** SQL of the carrier-credential aggregate (gateway.carrier_credential). */
@Injectable()
export class CarrierCredentialRepository {
  /** The carrier a key hash reports for, revoked or not; undefined for an unknown hash. */
  async carrierOf(
    sql: Sql,
    keyHash: string,
  ): Promise<Pick<CarrierCredentialRecord, 'carrierCode' | 'revokedAt'> | undefined> {
    const [row] = (await sql.query(
      `SELECT carrier_code AS "carrierCode", revoked_at AS "revokedAt" FROM ${CARRIER_CREDENTIAL}
        WHERE key_hash = $1 LIMIT 1`,
      [keyHash],
    )) as Pick<CarrierCredentialRecord, 'carrierCode' | 'revokedAt'>[];
    return row;
  }

  async insert(
    sql: Sql,
    credential: { carrierCode: string; keyHash: string; prefix: string },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO ${CARRIER_CREDENTIAL} (carrier_code, key_hash, prefix) VALUES ($1, $2, $3)`,
      [credential.carrierCode, credential.keyHash, credential.prefix],
    );
  }

  find(sql: Sql, lookup: CarrierCredentialLookup): Promise<CarrierCredentialRecord | undefined> {
    return findSecret<CarrierCredentialRecord>(sql, CARRIER_CREDENTIAL, COLUMNS, lookup);
  }

  /** Revokes the credential unless it is revoked already (revokeSecret); 0 or 1. */
  revoke(sql: Sql, lookup: CarrierCredentialLookup): Promise<number> {
    return revokeSecret(sql, CARRIER_CREDENTIAL, lookup);
  }

  /** One page, newest first, and how many credentials there are. */
  async page(
    sql: Sql,
    offset: number,
    limit: number,
  ): Promise<[CarrierCredentialRecord[], number]> {
    const rows = (await sql.query(
      `SELECT ${COLUMNS} FROM ${CARRIER_CREDENTIAL} ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    )) as CarrierCredentialRecord[];
    const [{ total }] = (await sql.query(
      `SELECT count(*) AS total FROM ${CARRIER_CREDENTIAL}`,
    )) as { total: number }[];
    return [rows, total];
  }
}
