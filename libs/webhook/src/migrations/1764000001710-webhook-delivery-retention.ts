import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the delivery retention sweep (WebhookDispatcher) finds old deliveries by: their creation
 * time. A BRIN index: it grows with the table's physical order, so a few pages of summary cover it
 * where a B-tree would add an entry for every delivery.
 */
export class WebhookDeliveryRetention1764000001710 implements MigrationInterface {
  name = 'WebhookDeliveryRetention1764000001710';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_delivery_created_at" ON "webhooks"."webhook_delivery" USING brin ("created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."ix_webhook_delivery_created_at"`);
  }
}
