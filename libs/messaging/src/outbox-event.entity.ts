import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { TraceCarrier } from '@consign/observability';

/**
 * An event written in the same transaction as the change it describes, published after commit
 * by the OutboxRelay: an event goes out if and only if its transaction committed. The entity has
 * no schema of its own: each service's DataSource places it in that service's schema.
 */
@Entity({ name: 'outbox_event' })
@Index('ix_outbox_event_pending', ['id'], { where: 'published_at IS NULL' })
export class OutboxEventEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_outbox_event',
  })
  id!: number;

  @Column({ type: 'uuid', name: 'event_id' })
  eventId!: string;

  @Column({ type: 'varchar', length: 200 })
  topic!: string;

  @Column({ type: 'varchar', length: 200, name: 'message_key' })
  messageKey!: string;

  @Column({ type: 'jsonb' })
  envelope!: unknown;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  headers!: Record<string, string>;

  /** The W3C trace context of the span that wrote the event (null outside a trace). */
  @Column({ type: 'jsonb', name: 'trace_context', nullable: true })
  traceContext!: TraceCarrier | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'published_at', nullable: true })
  publishedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'locked_until', nullable: true })
  lockedUntil!: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ type: 'text', name: 'last_error', nullable: true })
  lastError!: string | null;
}
