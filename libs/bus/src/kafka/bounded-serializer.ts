import { Logger } from '@nestjs/common';
// Nest's default Kafka serializer (@publicApi), exported from its serializers entry point only.
import { KafkaRequestSerializer } from '@nestjs/microservices/serializers';
import { CommonErrorCode, failure } from '@consign/contracts';

/**
 * The largest record value the Mokapi 0.52 test broker delivers: it takes a longer one, then
 * panics ("kafka panic: offset out of range") serving every fetch that reaches it and never
 * answers that fetch, so the consumer stays stuck on that offset for good (measured: a 65,536-byte
 * value arrives, a 65,537-byte one never does; libs/testing/src/kafka/mokapi-broker.int.spec.ts).
 */
export const MOKAPI_MAX_VALUE_BYTES = 65_536;

/** The serialized value, in bytes (Nest's serializer leaves a string, a Buffer or null). */
function valueBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Buffer.isBuffer(value)) return value.length;
  return 0;
}

interface SerializedMessage {
  value: unknown;
  headers: Record<string, unknown>;
  key?: unknown;
}

/**
 * A message whose value the broker must never be handed: over BUS_MAX_MESSAGE_BYTES. Thrown by
 * the client side (a request or an event): `send` fails at once instead of a broker refusing the
 * record (real Kafka: MESSAGE_TOO_LARGE) or, worse, taking it and hanging every consumer of the
 * topic (the test broker).
 */
export class BusMessageTooLarge extends Error {
  constructor(
    readonly pattern: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`a message of ${bytes} bytes on ${pattern} is over the bus's ${limit}-byte limit`);
    this.name = 'BusMessageTooLarge';
  }
}

/**
 * The serializer of a service's replies (ServerKafka): a reply whose value is over the limit is
 * replaced by a failure reply saying so (an Internal error, a 500: the service could not say what
 * it meant, the client did nothing wrong), so the caller hears at once rather than waiting for its
 * timeout, and no consumer is ever handed a record its broker cannot serve. Every reply within the
 * limit goes out exactly as Nest's serializer writes it.
 */
export class BoundedReplySerializer extends KafkaRequestSerializer {
  private readonly logger = new Logger('Bus');

  constructor(private readonly maxValueBytes: number) {
    super();
  }

  override serialize(value: unknown): SerializedMessage {
    const message = super.serialize(value) as SerializedMessage;
    const bytes = valueBytes(message.value);
    if (bytes <= this.maxValueBytes) return message;
    this.logger.error(
      `a reply of ${bytes} bytes is over the bus's ${this.maxValueBytes}-byte limit (BUS_MAX_MESSAGE_BYTES): answered with an internal error instead`,
    );
    return {
      ...message,
      value: JSON.stringify(
        failure(
          CommonErrorCode.Internal,
          `The answer (${bytes} bytes) is larger than one bus message may carry (${this.maxValueBytes} bytes).`,
        ),
      ),
    };
  }
}

/**
 * The serializer of a process's requests and events (ClientKafka): over the limit, the message is
 * never sent (BusMessageTooLarge). A request's caller gets the error at once (CommandBus: 503);
 * an outbox event stays in its outbox, and the relay says why.
 */
export class BoundedRequestSerializer extends KafkaRequestSerializer {
  constructor(private readonly maxValueBytes: number) {
    super();
  }

  override serialize(value: unknown, options?: { pattern?: string }): SerializedMessage {
    const message = super.serialize(value) as SerializedMessage;
    const bytes = valueBytes(message.value);
    if (bytes > this.maxValueBytes)
      throw new BusMessageTooLarge(options?.pattern ?? 'the bus', bytes, this.maxValueBytes);
    return message;
  }
}
