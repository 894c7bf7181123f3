import type { EachMessagePayload, IHeaders } from 'kafkajs';
import { eachMessagePayload, kafkaMessage } from '@consign/testing/fixtures';
import { PacedKafkaClient } from './kafka-client';
import { spyOnLogger } from '@consign/testing/logging';

const TOPIC = 'rating.order.calculate.v1.reply';

function reply(offset: string, headers: IHeaders, value: string): EachMessagePayload {
  return eachMessagePayload(TOPIC, 0, kafkaMessage(offset, headers, value));
}

/** The client's reply callback, a request waiting for `id` and the consumer's seeks. */
function replyConsumer(id: string) {
  const client = new PacedKafkaClient({ client: { brokers: ['127.0.0.1:9'] } });
  const seek = jest.fn();
  const internals = client as unknown as {
    _consumer: { seek: typeof seek };
    routingMap: Map<string, (packet: { response?: unknown }) => void>;
  };
  internals._consumer = { seek };
  const answered: unknown[] = [];
  internals.routingMap.set(id, (packet) => answered.push(packet.response));
  return { onReply: client.createResponseCallback(), seek, answered };
}

describe('PacedKafkaClient reply consumer', () => {
  const warn = spyOnLogger('warn');

  it('answers the request a reply names', async () => {
    const { onReply, seek, answered } = replyConsumer('abc');
    await onReply(reply('3', { kafka_correlationId: 'abc' }, '{"ok":true}'));
    expect(answered).toEqual([{ ok: true }]);
    expect(seek).not.toHaveBeenCalled();
  });

  it('reads a reply that came without its correlation id again, once', async () => {
    const { onReply, seek, answered } = replyConsumer('abc');
    // What Mokapi 0.52 served once: the value missing, the headers read in its place.
    const broken = reply('7', {}, '\u0004&kafka_correlationId*abc');
    await onReply(broken);
    expect(seek).toHaveBeenCalledWith({ topic: TOPIC, partition: 0, offset: '7' });
    expect(warn()).toHaveBeenCalledWith(
      `a reply on ${TOPIC}[0] offset 7 came without its correlation id (25 bytes): reading it again`,
    );
    // The next fetch brings it whole: the request is answered.
    await onReply(reply('7', { kafka_correlationId: 'abc' }, '{"ok":true}'));
    expect(answered).toEqual([{ ok: true }]);
    expect(seek).toHaveBeenCalledTimes(1);
  });

  it('ignores a record without a correlation id the second time it reads it', async () => {
    const { onReply, seek, answered } = replyConsumer('abc');
    await onReply(reply('9', {}, 'not ours'));
    await onReply(reply('9', {}, 'not ours'));
    expect(seek).toHaveBeenCalledTimes(1);
    expect(warn()).toHaveBeenLastCalledWith(
      `a reply on ${TOPIC}[0] offset 9 came without its correlation id (8 bytes) again: ignored`,
    );
    expect(answered).toEqual([]);
  });
});
