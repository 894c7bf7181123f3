import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One row per event a consumer has handled: a redelivered event finds its row and is skipped. */
@Entity({ name: 'inbox_message' })
export class InboxMessageEntity {
  @PrimaryColumn({ type: 'varchar', length: 100, primaryKeyConstraintName: 'pk_inbox_message' })
  consumer!: string;

  @PrimaryColumn({ type: 'uuid', name: 'event_id', primaryKeyConstraintName: 'pk_inbox_message' })
  eventId!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'handled_at' })
  handledAt!: Date;
}
