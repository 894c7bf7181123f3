import { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './messaging.migration';

/**
 * What the retention sweep (MessagingRetention) finds old rows by: when an outbox event was
 * published, when an inbox message was handled. BRIN indexes: both columns grow with the table's
 * physical order, so a few pages of summary cover it and an insert or a publish costs next to
 * nothing more (a B-tree would add an entry to every row).
 */
export class AddMessagingRetention1764000001700 implements MigrationInterface {
  name = 'AddMessagingRetention1764000001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(
      `CREATE INDEX "ix_outbox_event_published_at" ON "${s}"."outbox_event" USING brin ("published_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_inbox_message_handled_at" ON "${s}"."inbox_message" USING brin ("handled_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP INDEX "${s}"."ix_inbox_message_handled_at"`);
    await queryRunner.query(`DROP INDEX "${s}"."ix_outbox_event_published_at"`);
  }
}
