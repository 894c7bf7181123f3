import { COMMAND_TOPICS, CatalogTopic, RatingTopic, replyTopicOf } from './topics';

describe('command topics', () => {
  it('lists every request-reply topic once, so Kafka clients subscribe to each reply', () => {
    const all = [...Object.values(CatalogTopic), ...Object.values(RatingTopic)];
    expect([...COMMAND_TOPICS].sort()).toEqual([...all].sort());
    expect(new Set(COMMAND_TOPICS).size).toBe(COMMAND_TOPICS.length);
  });

  it('names topics <context>.<aggregate>.<verb>.v<N>', () => {
    for (const topic of COMMAND_TOPICS) expect(topic).toMatch(/^[a-z]+\.[a-z]+\.[a-z]+\.v\d+$/);
    expect(replyTopicOf(RatingTopic.CalculateOrder)).toBe('rating.order.calculate.v1.reply');
  });
});
