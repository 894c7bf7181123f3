import { ServerKafka } from '@nestjs/microservices';
import type { EachMessagePayload, IHeaders } from 'kafkajs';
import { eachMessagePayload, kafkaMessage } from '@consign/testing/fixtures';
import { ObservedKafkaServer } from './kafka-server';
import { spyOnLogger } from '@consign/testing/logging';

const TOPIC = 'label.events';

function consumed(offset: string, headers: IHeaders, value: string): EachMessagePayload {
  return eachMessagePayload(TOPIC, 2, kafkaMessage(offset, headers, value));
}

/** The server, with Nest's own handling and the consumer's seeks observed. */
function server() {
  const observed = new ObservedKafkaServer({ client: { brokers: ['127.0.0.1:9'] } });
  const seek = jest.fn();
  (observed as unknown as { consumer: { seek: typeof seek } }).consumer = { seek };
  const handled: string[] = [];
  const nest = jest
    .spyOn(ServerKafka.prototype, 'handleMessage')
    .mockImplementation(async (payload: EachMessagePayload) => {
      handled.push(payload.message.offset);
    });
  return { observed, seek, handled, restore: () => nest.mockRestore() };
}

describe('ObservedKafkaServer', () => {
  const warn = spyOnLogger('warn');

  it('hands a message with headers to Nest', async () => {
    const { observed, seek, handled, restore } = server();
    await observed.handleMessage(consumed('3', { 'x-correlation-id': 'c1' }, '{"a":1}'));
    await observed.handleMessage(consumed('4', {}, '{"from":"kcat"}'));
    restore();
    expect(handled).toEqual(['3', '4']);
    expect(seek).not.toHaveBeenCalled();
  });

  it('reads a message without headers or a JSON value again, once, before handling it', async () => {
    const { observed, seek, handled, restore } = server();
    // What Mokapi 0.52 served once: the record's headers read as its value.
    await observed.handleMessage(consumed('7', {}, '\u0004&x-correlation-id*c1'));
    expect(seek).toHaveBeenCalledWith({ topic: TOPIC, partition: 2, offset: '7' });
    expect(handled).toEqual([]);
    expect(warn()).toHaveBeenCalledWith(
      `a message on ${TOPIC}[2] offset 7 came without headers or a JSON value (21 bytes): reading it again`,
    );
    // The next fetch brings it whole.
    await observed.handleMessage(consumed('7', { 'x-correlation-id': 'c1' }, '{"a":1}'));
    restore();
    expect(handled).toEqual(['7']);
    expect(seek).toHaveBeenCalledTimes(1);
  });

  it('handles it as it is when the second reading is the same (the dead-letter path decides)', async () => {
    const { observed, seek, handled, restore } = server();
    await observed.handleMessage(consumed('9', {}, 'oops'));
    await observed.handleMessage(consumed('9', {}, 'oops'));
    restore();
    expect(seek).toHaveBeenCalledTimes(1);
    expect(handled).toEqual(['9']);
    expect(warn()).toHaveBeenLastCalledWith(
      `a message on ${TOPIC}[2] offset 9 came without headers or a JSON value (4 bytes) again: handled as it is`,
    );
  });
});
