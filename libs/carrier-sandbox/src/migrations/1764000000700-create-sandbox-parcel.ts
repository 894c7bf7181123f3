import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSandboxParcel1764000000700 implements MigrationInterface {
  name = 'CreateSandboxParcel1764000000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "carrier_sandbox"."sandbox_parcel" (
        "id" bigint NOT NULL,
        "carrier_code" varchar(32) NOT NULL,
        "tracking_number" varchar(255),
        "by_tracking_number" boolean NOT NULL DEFAULT false,
        "scenario" varchar(32) NOT NULL,
        "step" int NOT NULL DEFAULT 0,
        "next_at" timestamptz NOT NULL,
        "locked_until" timestamptz,
        "done" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_sandbox_parcel" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_sandbox_parcel_due" ON "carrier_sandbox"."sandbox_parcel" ("next_at") WHERE NOT "done"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "carrier_sandbox"."sandbox_parcel"`);
  }
}
