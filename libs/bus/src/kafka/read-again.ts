import type { Logger } from '@nestjs/common';
import type { Consumer, KafkaMessage } from 'kafkajs';

/**
 * Mokapi 0.52 (the test broker) now and then serves a record without its value: the consumer
 * reads the record's headers as its value and finds no header. Seen when two consumer groups
 * fetched the same new record within a few milliseconds (one group got the broken copy, the other
 * the right one), about once in 3,000 request-replies under load (a temporary probe), and as a
 * 504 in two CI runs in a row, on a reply topic. Every topic read by several groups can meet it.
 *
 * A consumer that meets such a record reads it again, once: it seeks to it, so that the next
 * fetch brings it anew (kafkajs hands over nothing more of that partition's batch after a seek).
 * A second reading like the first is handled as it is: on any broker, that is a record some
 * producer really wrote so. Both readings are logged.
 */
export class ReadAgainOnce {
  /** Per partition ("topic:partition"), the offset being read again. */
  private readonly offsets = new Map<string, string>();

  /** `what` names the records in the log lines: "a reply", "a message". */
  constructor(
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly what: string,
  ) {}

  /**
   * Whether the record at `offset`, found with `problem`, is read again: the first time, when
   * `consumer` is sought to it (the caller leaves it unhandled); the second time it is not, and
   * the log line says `otherwise`.
   */
  readAgain(
    consumer: Pick<Consumer, 'seek'> | null | undefined,
    { topic, partition, offset }: { topic: string; partition: number; offset: string },
    problem: string,
    otherwise: string,
  ): boolean {
    const at = `${topic}:${partition}`;
    const place = `${this.what} on ${topic}[${partition}] offset ${offset}`;
    if (this.offsets.get(at) === offset) {
      this.offsets.delete(at);
      this.logger.warn(`${place} ${problem} again: ${otherwise}`);
      return false;
    }
    this.offsets.set(at, offset);
    this.logger.warn(`${place} ${problem}: reading it again`);
    consumer?.seek({ topic, partition, offset });
    return true;
  }

  /** readAgain for a message that lostItsValue; a second such reading is handled as it is. */
  readAgainIfLost(
    consumer: Pick<Consumer, 'seek'> | null | undefined,
    topic: string,
    partition: number,
    message: KafkaMessage,
  ): boolean {
    if (!lostItsValue(message)) return false;
    return this.readAgain(
      consumer,
      { topic, partition, offset: message.offset },
      `came without headers or a JSON value (${message.value?.length ?? 0} bytes)`,
      'handled as it is',
    );
  }
}

/**
 * Whether a consumed record looks like Mokapi's record without its value (ReadAgainOnce): no
 * header at all, and a value that cannot begin a JSON text (empty, or a first byte after any
 * whitespace that no JSON value starts with). The headers read in the value's place begin with
 * their count and their first key's length as zigzag varints: control characters for the few
 * headers and short names a message carries (a count of 17, or 24 to 28, would read as a JSON
 * start, and such a record would be handled as it is, as before). Every Consign producer sets
 * headers (the correlation id, a command's id and deadline, Nest's reply routing), and every
 * value is JSON; a carrier's events published without headers (kcat) are JSON too. One byte is
 * looked at, so a message without headers costs no second parse, and nothing is allocated.
 */
export function lostItsValue({ headers, value }: Pick<KafkaMessage, 'headers' | 'value'>): boolean {
  if (hasOwnKey(headers)) return false;
  if (value === null) return true;
  for (let i = 0; i < value.length; i++) {
    if (JSON_WHITESPACE.has(value[i])) continue;
    return !JSON_STARTS.has(value[i]);
  }
  return true;
}

/** Whether the headers hold any header: looked at without building their key list per message. */
function hasOwnKey(headers: KafkaMessage['headers']): boolean {
  if (!headers) return false;
  for (const key in headers) if (Object.prototype.hasOwnProperty.call(headers, key)) return true;
  return false;
}

const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** The first byte of a JSON value: an object, an array, a string, a number, true, false, null. */
const JSON_STARTS = new Set([...'{["-0123456789tfn'].map((c) => c.charCodeAt(0)));
