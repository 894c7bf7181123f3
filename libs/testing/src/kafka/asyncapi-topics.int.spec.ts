import { COMMAND_TOPICS, CarrierTopic, EVENT_TOPICS, replyTopicOf } from '@consign/contracts';
import { consignMokapiTopics, mokapiTopicsOf } from './asyncapi-topics';
import { renderMokapiAsyncApi } from './mokapi-broker';

describe('test broker topics from docs/asyncapi.yaml', () => {
  it('declares every channel of the document, reply topics apart, without schemas', () => {
    const { topics, replyTopics } = consignMokapiTopics();
    expect(replyTopics.map((t) => t.name).sort()).toEqual(COMMAND_TOPICS.map(replyTopicOf).sort());
    const names = topics.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([...COMMAND_TOPICS, ...EVENT_TOPICS]));
    expect(names).toContain(`${CarrierTopic.Checkpoint}.dlt`);
    const rendered = renderMokapiAsyncApi({ topics, replyTopics });
    expect(JSON.stringify(rendered)).not.toMatch(/"(messages|payload)"/);
    expect(Object.keys(rendered.channels)).toHaveLength(topics.length + replyTopics.length);
  });

  it('keeps partitions and retention, and drops everything else', () => {
    expect(
      mokapiTopicsOf({
        channels: {
          'a.v1': {
            address: 'a.v1',
            'x-consign-kind': 'event',
            messages: { A: { $ref: '#/components/messages/a.v1' } },
            bindings: { kafka: { partitions: 6, topicConfiguration: { 'retention.ms': 1000 } } },
          },
          'b.v1.reply': { address: 'b.v1.reply', 'x-consign-kind': 'reply' },
        },
      }),
    ).toEqual({
      topics: [{ name: 'a.v1', partitions: 6, retentionMs: 1000 }],
      replyTopics: [{ name: 'b.v1.reply' }],
    });
    expect(() => mokapiTopicsOf({})).toThrow(/no channels/);
  });
});
