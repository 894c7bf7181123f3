import {
  ADAPTER_TOPICS,
  COMMAND_TOPICS,
  CarrierTopic,
  CatalogTopic,
  EVENT_TOPICS,
  LabelTopic,
  RatingTopic,
  replyTopicOf,
} from './topics';

describe('command topics', () => {
  it('lists every request-reply topic once, so Kafka clients subscribe to each reply', () => {
    const all = [
      ...Object.values(CatalogTopic),
      ...Object.values(RatingTopic),
      ...Object.values(LabelTopic),
    ];
    expect([...COMMAND_TOPICS].sort()).toEqual([...all].sort());
    expect(new Set(COMMAND_TOPICS).size).toBe(COMMAND_TOPICS.length);
  });

  it('names topics <context>.<aggregate>.<verb>.v<N>', () => {
    for (const topic of COMMAND_TOPICS) expect(topic).toMatch(/^[a-z]+\.[a-z]+\.[a-z]+\.v\d+$/);
    expect(replyTopicOf(RatingTopic.CalculateOrder)).toBe('rating.order.calculate.v1.reply');
  });
});

describe('event and adapter topics', () => {
  it('names event topics <context>.<aggregate>.<past verb>.v<N>', () => {
    for (const topic of EVENT_TOPICS) expect(topic).toMatch(/^[a-z]+\.[a-z]+\.[a-z]+\.v\d+$/);
  });

  it('keeps carrier events on their own versioned topic, apart from commands and events', () => {
    expect(ADAPTER_TOPICS).toEqual([CarrierTopic.Checkpoint]);
    expect(CarrierTopic.Checkpoint).toBe('carrier.checkpoint.v1');
    for (const topic of ADAPTER_TOPICS) {
      expect(COMMAND_TOPICS).not.toContain(topic);
      expect(EVENT_TOPICS).not.toContain(topic);
    }
  });
});
