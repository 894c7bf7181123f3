import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStockReservation1764000000210 implements MigrationInterface {
  name = 'CreateStockReservation1764000000210';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One row per order the saga touched: what is reserved for it, and whether it has since been
    // released or consumed. It makes release and deduction idempotent, and a request arriving
    // after its order was cancelled or shipped harmless.
    await queryRunner.query(`
      CREATE TABLE "catalog"."stock_reservation" (
        "order_id" bigint NOT NULL,
        "merchant_id" bigint NOT NULL,
        "status" varchar(16) NOT NULL,
        "warehouse_code" varchar(32),
        "lines" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "attempt" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_stock_reservation" PRIMARY KEY ("order_id"),
        CONSTRAINT "ck_stock_reservation_status" CHECK ("status" IN ('reserved', 'released', 'consumed'))
      )`);
    // Inventory pages per merchant, optionally for one variant.
    await queryRunner.query(
      `CREATE INDEX "ix_stock_level_merchant_id_variant_id" ON "catalog"."stock_level" ("merchant_id", "variant_id", "warehouse_code")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "catalog"."ix_stock_level_merchant_id_variant_id"`);
    await queryRunner.query(`DROP TABLE "catalog"."stock_reservation"`);
  }
}
