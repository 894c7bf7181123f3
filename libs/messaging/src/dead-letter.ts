import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { DLT_HEADERS, deadLetterTopicOf } from '@consign/contracts';
import { noteOutboxWrite } from './outbox';

/** One message a consumer gave up on. */
export interface DeadLetter {
  consumer: string;
  topic: string;
  /** The consumed value, parsed (what the consumer saw). */
  value: unknown;
  /** The consumed bytes, when the message came from Kafka: published to the DLT unchanged. */
  raw?: Buffer | null;
  error: string;
  attempts: number;
  key: string | null;
  headers: Record<string, string>;
}

/** The headers of a dead letter on `<topic>.dlt`: the original ones plus the x-dlt-* ones. */
export function deadLetterHeaders(letter: DeadLetter, failedAt: Date): Record<string, string> {
  return {
    ...letter.headers,
    [DLT_HEADERS.consumer]: letter.consumer,
    [DLT_HEADERS.error]: letter.error.slice(0, 4000),
    [DLT_HEADERS.attempts]: String(letter.attempts),
    [DLT_HEADERS.failedAt]: failedAt.toISOString(),
  };
}

/**
 * Parks dead letters: always in the service's `dead_letter` table (the operators' record, in
 * both modes); in distributed mode also in the outbox, addressed to `<topic>.dlt`, in the same
 * transaction, so the outbox relay publishes them once committed (retrying while Kafka is down,
 * marking them published) and nothing is lost between the two. In a transaction (as every caller
 * parks them), the relay is nudged when it commits; otherwise its next poll finds them.
 */
export async function parkDeadLetters(
  manager: EntityManager,
  schema: string,
  letters: DeadLetter[],
  options: { toTopic: boolean; now?: Date },
): Promise<void> {
  if (letters.length === 0) return;
  await manager.query(
    `INSERT INTO "${schema}"."dead_letter" (consumer, topic, envelope, error, attempts, raw_value)
     SELECT d.consumer, d.topic, COALESCE(d.value, 'null'::jsonb), d.error, d.attempts,
       decode(d.raw, 'base64')
     FROM json_to_recordset($1::json)
       AS d(consumer text, topic text, value jsonb, error text, attempts int, raw text)`,
    [
      JSON.stringify(
        letters.map((l) => ({
          consumer: l.consumer,
          topic: l.topic,
          value: l.value ?? null,
          error: l.error.slice(0, 4000),
          attempts: l.attempts,
          raw: rawOf(l),
        })),
      ),
    ],
  );
  if (!options.toTopic) return;
  noteOutboxWrite(manager, schema);
  const now = options.now ?? new Date();
  await manager.query(
    `INSERT INTO "${schema}"."outbox_event" (event_id, topic, message_key, envelope, headers, raw_value)
     SELECT d.event_id, d.topic, d.message_key, COALESCE(d.value, 'null'::jsonb), d.headers,
       decode(d.raw, 'base64')
     FROM json_to_recordset($1::json)
       AS d(event_id uuid, topic text, message_key text, value jsonb, headers jsonb, raw text)`,
    [
      JSON.stringify(
        letters.map((letter) => ({
          event_id: randomUUID(),
          topic: deadLetterTopicOf(letter.topic),
          message_key: (letter.key ?? '').slice(0, 200),
          value: letter.value ?? null,
          headers: deadLetterHeaders(letter, now),
          raw: rawOf(letter),
        })),
      ),
    ],
  );
}

/** The bytes to keep, base64 for the JSON parameter; null when the letter has none. */
function rawOf(letter: DeadLetter): string | null {
  return letter.raw ? letter.raw.toString('base64') : null;
}
