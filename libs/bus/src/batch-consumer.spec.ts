import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { AppConfig } from '@consign/config';
import { kafkaMessage } from '@consign/testing/fixtures';
import { BatchTopicConsumer, ConsumedMessage } from './batch-consumer';
import { spyOnLogger } from '@consign/testing/logging';

const TOPIC = 'label.tracking.events';

const fine = (offset: string) =>
  kafkaMessage(offset, { 'x-correlation-id': `c${offset}` }, '{"ok":1}');
/** What Mokapi 0.52 served once: the record's headers read as its value. */
const broken = (offset: string) => kafkaMessage(offset, {}, '\u0004&x-correlation-id*c1');

/** A consumer of TOPIC, fed batches by hand as kafkajs' eachBatch would. */
function batchConsumer() {
  const handled: ConsumedMessage[][] = [];
  const consumer = new BatchTopicConsumer(new AppConfig(), null, {
    topic: TOPIC,
    groupId: 'label-tracking',
    handler: async (messages) => {
      handled.push(messages);
    },
  });
  const seek = jest.fn();
  const resolved: string[] = [];
  const kafka = { seek } as unknown as Consumer;
  const internals = consumer as unknown as {
    consumer: Consumer;
    writes: Set<Promise<void>>;
    eachBatch(consumer: Consumer, payload: EachBatchPayload): Promise<void>;
  };
  internals.consumer = kafka;
  const feed = async (messages: KafkaMessage[]) => {
    const payload = {
      batch: { topic: TOPIC, partition: 1, messages },
      resolveOffset: (offset: string) => resolved.push(offset),
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
    } as unknown as EachBatchPayload;
    await internals.eachBatch(kafka, payload);
    await Promise.all([...internals.writes]);
  };
  return { feed, seek, handled, resolved };
}

describe('BatchTopicConsumer and a message without its value', () => {
  const warn = spyOnLogger('warn');

  it('handles the messages before it, and reads it and the rest again from a seek', async () => {
    const { feed, seek, handled, resolved } = batchConsumer();
    await feed([fine('10'), fine('11'), broken('12'), fine('13')]);
    expect(handled.map((batch) => batch.map((m) => m.correlationId))).toEqual([['c10', 'c11']]);
    expect(resolved).toEqual(['11']);
    expect(seek).toHaveBeenCalledWith({ topic: TOPIC, partition: 1, offset: '12' });
    expect(warn()).toHaveBeenCalledWith(
      `a message on ${TOPIC}[1] offset 12 came without headers or a JSON value (21 bytes): reading it again`,
    );
    // The next fetch, from the seek, brings it whole.
    await feed([fine('12'), fine('13')]);
    expect(handled.map((batch) => batch.map((m) => m.correlationId))).toEqual([
      ['c10', 'c11'],
      ['c12', 'c13'],
    ]);
    expect(resolved).toEqual(['11', '13']);
    expect(seek).toHaveBeenCalledTimes(1);
  });

  it('hands nothing over when the batch starts with it', async () => {
    const { feed, seek, handled, resolved } = batchConsumer();
    await feed([broken('20'), fine('21')]);
    expect(handled).toEqual([]);
    expect(resolved).toEqual([]);
    expect(seek).toHaveBeenCalledWith({ topic: TOPIC, partition: 1, offset: '20' });
  });

  it('handles it as it is the second time (the handler dead-letters what it cannot read)', async () => {
    const { feed, seek, handled, resolved } = batchConsumer();
    await feed([broken('30')]);
    await feed([broken('30'), fine('31')]);
    expect(seek).toHaveBeenCalledTimes(1);
    expect(handled).toHaveLength(1);
    expect(handled[0].map((m) => m.value)).toEqual(['\u0004&x-correlation-id*c1', { ok: 1 }]);
    expect(resolved).toEqual(['31']);
    expect(warn()).toHaveBeenLastCalledWith(
      `a message on ${TOPIC}[1] offset 30 came without headers or a JSON value (21 bytes) again: handled as it is`,
    );
  });
});
