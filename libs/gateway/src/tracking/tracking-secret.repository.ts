import { Injectable } from '@nestjs/common';
import { Sql } from '@consign/database';
import { GATEWAY_SCHEMA } from '../auth/gateway.database';

const TRACKING_SECRET = `"${GATEWAY_SCHEMA}"."tracking_secret"`;

/** SQL of the tracking pages' signing key: one row, created once, shared by every gateway. */
@Injectable()
export class TrackingSecretRepository {
  /** Stores `candidate` unless a secret exists already; answers the stored one (base64). */
  async ensure(sql: Sql, candidate: string): Promise<string> {
    await sql.query(
      `INSERT INTO ${TRACKING_SECRET} (id, secret) VALUES (1, $1) ON CONFLICT DO NOTHING`,
      [candidate],
    );
    const [row] = (await sql.query(`SELECT secret FROM ${TRACKING_SECRET} WHERE id = 1`)) as {
      secret: string;
    }[];
    return row.secret;
  }
}
