import { MigrationInterface, QueryRunner } from 'typeorm';
import { CreateIdempotencyKey1764000001100 } from './1764000001100-create-idempotency-key';

/**
 * The gateway no longer keeps Idempotency-Key records: a key's command id is derived from the
 * merchant and the key, and the owning service's command ledger is its record
 * (docs/operations.md). `down` brings back the empty table of CreateIdempotencyKey1764000001100.
 */
export class DropIdempotencyKey1764000001600 implements MigrationInterface {
  name = 'DropIdempotencyKey1764000001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gateway"."idempotency_key"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await new CreateIdempotencyKey1764000001100().up(queryRunner);
  }
}
