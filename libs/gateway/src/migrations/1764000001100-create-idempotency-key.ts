import { MigrationInterface, QueryRunner } from 'typeorm';

/** The Idempotency-Key records of the gateway (dropped by DropIdempotencyKey1764000001600). */
export class CreateIdempotencyKey1764000001100 implements MigrationInterface {
  name = 'CreateIdempotencyKey1764000001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "gateway"."idempotency_key" (
        "merchant_id" bigint NOT NULL,
        "idempotency_key" varchar(255) NOT NULL,
        "fingerprint" char(64) NOT NULL,
        "command_id" uuid NOT NULL,
        "state" varchar(16) NOT NULL,
        "lock_token" uuid,
        "locked_until" timestamptz,
        "response_status" smallint,
        "response_body" text,
        "created_at" timestamptz NOT NULL,
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "pk_idempotency_key" PRIMARY KEY ("merchant_id", "idempotency_key"),
        CONSTRAINT "ck_idempotency_key_state" CHECK ("state" IN ('in_flight', 'completed')),
        CONSTRAINT "ck_idempotency_key_response" CHECK (
          ("state" = 'completed') = ("response_status" IS NOT NULL AND "response_body" IS NOT NULL))
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_idempotency_key_expires_at" ON "gateway"."idempotency_key" ("expires_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gateway"."idempotency_key"`);
  }
}
