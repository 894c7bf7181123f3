import { KAFKA_DEFAULT_FETCH_MAX_WAIT_MS } from '@consign/config';
import { kafkaClientOptions, kafkaJsConfig, kafkaServerOptions } from './kafka-options';

describe('Kafka options: the consumers’ fetch wait (KAFKA_FETCH_MAX_WAIT_MS)', () => {
  const endpoint = { clientId: 'a', groupId: 'a', brokers: ['127.0.0.1:9092'] };
  const waits = (fetchMaxWaitMs?: number) => {
    const options = fetchMaxWaitMs === undefined ? endpoint : { ...endpoint, fetchMaxWaitMs };
    return [
      kafkaServerOptions(options).options?.consumer?.maxWaitTimeInMs,
      kafkaClientOptions(options).options?.consumer?.maxWaitTimeInMs,
      kafkaJsConfig(options).consumer.maxWaitTimeInMs,
    ];
  };

  it('is the setting for every consumer: the bus server, its client and plain kafkajs', () => {
    expect(waits(2500)).toEqual([2500, 2500, 2500]);
  });

  it('is one second by default, not kafkajs’ five', () => {
    expect(KAFKA_DEFAULT_FETCH_MAX_WAIT_MS).toBe(1000);
    expect(waits()).toEqual([1000, 1000, 1000]);
  });
});
