import { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './messaging.migration';

/**
 * The command ledger (CommandLedger), in whichever service schema runs this migration: one row per
 * command id the service carried out (with its reply) or refused as expired.
 */
export class CreateCommandRecord1764000001000 implements MigrationInterface {
  name = 'CreateCommandRecord1764000001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE "${s}"."command_record" (
        "command_id" uuid NOT NULL,
        "topic" varchar(200) NOT NULL,
        "fingerprint" char(64) NOT NULL,
        "state" varchar(16) NOT NULL,
        "reply" json,
        "recorded_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_command_record" PRIMARY KEY ("command_id"),
        CONSTRAINT "ck_command_record_state" CHECK ("state" IN ('completed', 'expired')),
        CONSTRAINT "ck_command_record_reply" CHECK (("state" = 'completed') = ("reply" IS NOT NULL))
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_command_record_recorded_at" ON "${s}"."command_record" ("recorded_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."command_record"`);
  }
}
