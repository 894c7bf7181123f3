import { CommonErrorCode, success } from '@consign/contracts';
import { KafkaRequestSerializer } from '@nestjs/microservices/serializers';
import {
  BoundedReplySerializer,
  BoundedRequestSerializer,
  BusMessageTooLarge,
  MOKAPI_MAX_VALUE_BYTES,
} from './bounded-serializer';
import { kafkaClientOptions, kafkaServerOptions } from './kafka-options';

/** A reply whose JSON is `bytes` long: `{"ok":true,"data":"xxx…"}` (21 bytes around the data). */
const replyOf = (bytes: number) => success('x'.repeat(bytes - 21));

describe('bounded Kafka serializers', () => {
  const limit = MOKAPI_MAX_VALUE_BYTES;

  it('a reply within the limit goes out exactly as Nest serializes it', () => {
    const reply = replyOf(limit);
    const bounded = new BoundedReplySerializer(limit).serialize(reply);
    expect(bounded).toEqual(new KafkaRequestSerializer().serialize(replyOf(limit)));
    expect(Buffer.byteLength(bounded.value as string)).toBe(limit);
  });

  it('a reply one byte over the limit is answered with an internal error instead', () => {
    const bounded = new BoundedReplySerializer(limit).serialize(replyOf(limit + 1));
    expect(JSON.parse(bounded.value as string)).toEqual({
      ok: false,
      error: {
        code: CommonErrorCode.Internal,
        message: `The answer (${limit + 1} bytes) is larger than one bus message may carry (${limit} bytes).`,
      },
    });
    expect(bounded.headers).toEqual({});
  });

  it('counts bytes, not characters', () => {
    // 'é' is two bytes in UTF-8: half as many characters reach the limit.
    const reply = success('é'.repeat(limit / 2));
    expect(JSON.parse(new BoundedReplySerializer(limit).serialize(reply).value as string)).toEqual(
      expect.objectContaining({ ok: false }),
    );
  });

  it('a request or event over the limit is never sent', () => {
    const serializer = new BoundedRequestSerializer(limit);
    expect(serializer.serialize({ name: 'small' }, { pattern: 'label.create.v1' })).toEqual({
      value: '{"name":"small"}',
      headers: {},
    });
    expect(() =>
      serializer.serialize({ note: 'x'.repeat(limit) }, { pattern: 'label.create.v1' }),
    ).toThrow(
      new BusMessageTooLarge('label.create.v1', limit + '{"note":""}'.length, limit).message,
    );
  });

  it('Kafka options bound both sides when a limit is configured, and neither when none is', () => {
    const endpoint = { clientId: 'a', groupId: 'a', brokers: ['127.0.0.1:9092'] };
    const server = kafkaServerOptions({ ...endpoint, maxMessageBytes: limit }).options;
    const client = kafkaClientOptions({ ...endpoint, maxMessageBytes: limit }).options;
    expect(server?.serializer).toBeInstanceOf(BoundedReplySerializer);
    expect(client?.serializer).toBeInstanceOf(BoundedRequestSerializer);
    expect(kafkaServerOptions(endpoint).options?.serializer).toBeUndefined();
  });
});
