import { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './messaging.migration';

/**
 * The W3C trace context (`traceparent`, `tracestate`) of the span that wrote an outbox event,
 * published with it as Kafka headers so the event's consumers continue the same trace. Null for
 * events written outside a trace (tracing off, background work).
 */
export class AddOutboxTraceContext1764000001600 implements MigrationInterface {
  name = 'AddOutboxTraceContext1764000001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE "${s}"."outbox_event" ADD COLUMN "trace_context" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE "${s}"."outbox_event" DROP COLUMN "trace_context"`);
  }
}
