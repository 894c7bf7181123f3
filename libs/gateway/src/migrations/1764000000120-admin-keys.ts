import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin keys (role `admin`, belonging to no merchant), and the indexes the gateways' revocation
 * watcher reads every second: keys and credentials revoked or created since its last look.
 */
export class AdminKeys1764000000120 implements MigrationInterface {
  name = 'AdminKeys1764000000120';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "gateway"."api_key" DROP CONSTRAINT "ck_api_key_role"`);
    await queryRunner.query(
      `ALTER TABLE "gateway"."api_key" ADD CONSTRAINT "ck_api_key_role" CHECK ("role" IN ('merchant', 'operator', 'admin'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "gateway"."api_key" ALTER COLUMN "merchant_id" DROP NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "gateway"."api_key" ADD CONSTRAINT "ck_api_key_merchant" CHECK (("role" = 'admin') = ("merchant_id" IS NULL))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_api_key_changed_at" ON "gateway"."api_key" (GREATEST("created_at", "revoked_at"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_carrier_credential_changed_at" ON "gateway"."carrier_credential" (GREATEST("created_at", "revoked_at"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "gateway"."ix_carrier_credential_changed_at"`);
    await queryRunner.query(`DROP INDEX "gateway"."ix_api_key_changed_at"`);
    await queryRunner.query(`DELETE FROM "gateway"."api_key" WHERE "role" = 'admin'`);
    await queryRunner.query(
      `ALTER TABLE "gateway"."api_key" DROP CONSTRAINT "ck_api_key_merchant"`,
    );
    await queryRunner.query(
      `ALTER TABLE "gateway"."api_key" ALTER COLUMN "merchant_id" SET NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "gateway"."api_key" DROP CONSTRAINT "ck_api_key_role"`);
    await queryRunner.query(
      `ALTER TABLE "gateway"."api_key" ADD CONSTRAINT "ck_api_key_role" CHECK ("role" IN ('merchant', 'operator'))`,
    );
  }
}
