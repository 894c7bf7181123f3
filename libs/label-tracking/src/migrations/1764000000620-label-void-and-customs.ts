import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Void and customs (issue 14): a parcel remembers when its label was voided (the checkpoint
 * writer reads it under its row lock, so a late carrier event is flagged, not folded in); the
 * label keeps the refund and the customs form rating-service named; a checkpoint says whether it
 * came after the void.
 */
export class LabelVoidAndCustoms1764000000620 implements MigrationInterface {
  name = 'LabelVoidAndCustoms1764000000620';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "labels"."tracking" ADD COLUMN "voided_at" timestamptz NULL`,
    );
    await queryRunner.query(`
      ALTER TABLE "labels"."label"
        ADD COLUMN "customs_form" varchar(4) NULL,
        ADD COLUMN "refund" json NULL,
        ADD CONSTRAINT "ck_label_customs_form" CHECK ("customs_form" IN ('CN22', 'CN23'))`);
    await queryRunner.query(
      `ALTER TABLE "labels"."checkpoint" ADD COLUMN "after_void" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "labels"."checkpoint" DROP COLUMN "after_void"`);
    await queryRunner.query(
      `ALTER TABLE "labels"."label" DROP CONSTRAINT "ck_label_customs_form", DROP COLUMN "refund", DROP COLUMN "customs_form"`,
    );
    await queryRunner.query(`ALTER TABLE "labels"."tracking" DROP COLUMN "voided_at"`);
  }
}
