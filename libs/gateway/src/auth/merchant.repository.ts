import { Injectable } from '@nestjs/common';
import { ADMIN_LIMITS } from '@consign/contracts';
import { Sql } from '@consign/database';
import { GATEWAY_SCHEMA } from './gateway.database';

export const MERCHANT_NAME_MAX = ADMIN_LIMITS.merchant_name;

const MERCHANT = `"${GATEWAY_SCHEMA}"."merchant"`;
const COLUMNS = `id, name, created_at AS "createdAt"`;

/** A tenant: every record of every service belongs to one merchant. */
export interface Merchant {
  id: number;
  name: string;
  createdAt: Date;
}

/** SQL of the merchant aggregate (gateway.merchant). */
@Injectable()
export class MerchantRepository {
  async insert(sql: Sql, name: string): Promise<Merchant> {
    const [row] = (await sql.query(
      `INSERT INTO ${MERCHANT} (name) VALUES ($1) RETURNING ${COLUMNS}`,
      [name],
    )) as Merchant[];
    return row;
  }

  async find(sql: Sql, id: number): Promise<Merchant | null> {
    const [row] = (await sql.query(`SELECT ${COLUMNS} FROM ${MERCHANT} WHERE id = $1 LIMIT 1`, [
      id,
    ])) as Merchant[];
    return row ?? null;
  }

  /** The merchant with the lowest id (the first created), if any. */
  async first(sql: Sql): Promise<Merchant | null> {
    const [row] = (await sql.query(
      `SELECT ${COLUMNS} FROM ${MERCHANT} ORDER BY id ASC LIMIT 1`,
    )) as Merchant[];
    return row ?? null;
  }

  /** One page, newest first, and the number of merchants. */
  async page(sql: Sql, offset: number, limit: number): Promise<[Merchant[], number]> {
    const rows = (await sql.query(
      `SELECT ${COLUMNS} FROM ${MERCHANT} ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    )) as Merchant[];
    const [{ total }] = (await sql.query(`SELECT count(*) AS total FROM ${MERCHANT}`)) as {
      total: number;
    }[];
    return [rows, total];
  }
}
