import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import {
  HANDLED_MESSAGE_RETENTION_MS,
  MessagingRetention,
  PUBLISHED_EVENT_RETENTION_MS,
} from './messaging-retention';
import { MessagingSchema, openMessagingSchema } from '@consign/testing';

const SCHEMA = 'retention_test';
const HOUR = 60 * 60 * 1000;
const now = Date.parse('2026-05-01T08:00:00.000Z');
const ago = (ms: number) => new Date(now - ms);

describe('MessagingRetention', () => {
  let schema: MessagingSchema;
  let dataSource: DataSource;
  let retention: MessagingRetention;

  beforeAll(async () => {
    schema = await openMessagingSchema('retention-test', SCHEMA);
    dataSource = schema.dataSource;
    retention = new MessagingRetention(dataSource, SCHEMA, { now: () => now });
  });

  afterAll(async () => {
    await schema.close();
  });

  beforeEach(async () => {
    await schema.truncate();
  });

  /** Outbox events, one per `published_at` (null: not published yet), all created long ago. */
  async function events(...published: (Date | null)[]): Promise<void> {
    for (const [i, at] of published.entries())
      await dataSource.query(
        `INSERT INTO "${SCHEMA}".outbox_event (event_id, topic, message_key, envelope, created_at, published_at)
         VALUES (gen_random_uuid(), 'order.created.v1', $1, '{}', $2, $3)`,
        [`k${i}`, ago(30 * 24 * HOUR), at],
      );
  }

  async function messages(...handled: Date[]): Promise<void> {
    for (const at of handled)
      await dataSource.query(
        `INSERT INTO "${SCHEMA}".inbox_message (consumer, event_id, handled_at)
         VALUES ('catalog.stock', gen_random_uuid(), $1)`,
        [at],
      );
  }

  async function left(): Promise<{ published: (string | null)[]; handled: string[] }> {
    const published: { published_at: Date | null }[] = await dataSource.query(
      `SELECT published_at FROM "${SCHEMA}".outbox_event ORDER BY id`,
    );
    const handled: { handled_at: Date }[] = await dataSource.query(
      `SELECT handled_at FROM "${SCHEMA}".inbox_message ORDER BY handled_at`,
    );
    return {
      published: published.map((row) => row.published_at?.toISOString() ?? null),
      handled: handled.map((row) => row.handled_at.toISOString()),
    };
  }

  it('deletes events published and messages handled before their retention, nothing else', async () => {
    await events(
      ago(PUBLISHED_EVENT_RETENTION_MS + HOUR),
      ago(PUBLISHED_EVENT_RETENTION_MS - HOUR),
      null,
      ago(3 * PUBLISHED_EVENT_RETENTION_MS),
    );
    await messages(
      ago(HANDLED_MESSAGE_RETENTION_MS + HOUR),
      ago(HANDLED_MESSAGE_RETENTION_MS - HOUR),
      ago(HOUR),
    );

    await expect(retention.sweep()).resolves.toEqual({ events: 2, messages: 1 });

    // An unpublished event stays however old it is: the relay still owes it.
    await expect(left()).resolves.toEqual({
      published: [ago(PUBLISHED_EVENT_RETENTION_MS - HOUR).toISOString(), null],
      handled: [ago(HANDLED_MESSAGE_RETENTION_MS - HOUR), ago(HOUR)].map((at) => at.toISOString()),
    });
    await expect(retention.sweep()).resolves.toEqual({ events: 0, messages: 0 });
  });

  it('keeps an inbox message longer than Kafka keeps any topic we ship (a replayed dead letter reaches every consumer), and than its 7-day default', () => {
    const topics = readFileSync(resolve(__dirname, '../../../k8s/base/kafka/topics.yaml'), 'utf8');
    const retentions = [...topics.matchAll(/retention\.ms: "(\d+)"/g)].map((m) => Number(m[1]));
    expect(retentions.length).toBeGreaterThan(0);
    expect(HANDLED_MESSAGE_RETENTION_MS).toBeGreaterThan(Math.max(...retentions, 7 * 24 * HOUR));
  });

  it('deletes in batches until nothing old is left, however far behind it is', async () => {
    await dataSource.query(
      `INSERT INTO "${SCHEMA}".inbox_message (consumer, event_id, handled_at)
       SELECT 'catalog.stock', gen_random_uuid(), $1 FROM generate_series(1, 12001)`,
      [ago(HANDLED_MESSAGE_RETENTION_MS + HOUR)],
    );
    await messages(ago(HOUR));

    await expect(retention.sweep()).resolves.toEqual({ events: 0, messages: 12001 });
    await expect(left()).resolves.toEqual({ published: [], handled: [ago(HOUR).toISOString()] });
  });
});
