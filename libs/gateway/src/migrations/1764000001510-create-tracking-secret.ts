import { MigrationInterface, QueryRunner } from 'typeorm';

/** The key that signs public tracking-page tokens, shared by every gateway replica. */
export class CreateTrackingSecret1764000001510 implements MigrationInterface {
  name = 'CreateTrackingSecret1764000001510';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "gateway"."tracking_secret" (
        "id" smallint NOT NULL DEFAULT 1,
        "secret" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_tracking_secret" PRIMARY KEY ("id"),
        CONSTRAINT "ck_tracking_secret_single" CHECK ("id" = 1)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gateway"."tracking_secret"`);
  }
}
