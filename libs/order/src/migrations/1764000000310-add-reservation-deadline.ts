import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a Draft order last asked for its reservation, and how many times the watchdog asked
 * again, so that an order whose answer never comes is retried and then held, never Draft for good.
 */
export class AddReservationDeadline1764000000310 implements MigrationInterface {
  name = 'AddReservationDeadline1764000000310';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "orders"."order"
        ADD COLUMN "reservation_requested_at" timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN "reservation_retries" integer NOT NULL DEFAULT 0,
        ADD CONSTRAINT "ck_order_reservation_retries" CHECK ("reservation_retries" >= 0)`);
    // The watchdog's scan: Draft orders only, oldest request first.
    await queryRunner.query(
      `CREATE INDEX "ix_order_draft_reservation_requested_at" ON "orders"."order" ("reservation_requested_at")
       WHERE "status" = 'Draft'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "orders"."ix_order_draft_reservation_requested_at"`);
    await queryRunner.query(`
      ALTER TABLE "orders"."order" DROP CONSTRAINT "ck_order_reservation_retries",
        DROP COLUMN "reservation_retries", DROP COLUMN "reservation_requested_at"`);
  }
}
