import { EventEmitter } from 'node:events';
import type { Consumer } from 'kafkajs';
import { KafkaConsumerHealth } from './kafka-consumer-health';

/** The part of a kafkajs consumer the registry uses: its instrumentation events. */
function fakeConsumer(): { consumer: Consumer; emit(event: string): void } {
  const emitter = new EventEmitter();
  const events = {
    GROUP_JOIN: 'consumer.group_join',
    HEARTBEAT: 'consumer.heartbeat',
    CRASH: 'consumer.crash',
    STOP: 'consumer.stop',
    DISCONNECT: 'consumer.disconnect',
    REBALANCING: 'consumer.rebalancing',
  };
  const consumer = {
    events,
    on(event: string, listener: () => void) {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
  } as unknown as Consumer;
  return { consumer, emit: (event) => emitter.emit(event) };
}

describe('KafkaConsumerHealth', () => {
  it('counts a consumer registered after run() as joined until it crashes, and again after it rejoins', () => {
    const health = new KafkaConsumerHealth();
    const { consumer, emit } = fakeConsumer();
    health.track('catalog-service-server', consumer);
    expect(health.statuses()).toEqual([
      { name: 'catalog-service-server', joined: true, lastEvent: 'run' },
    ]);

    emit('consumer.crash');
    expect(health.statuses()[0]).toMatchObject({ joined: false, lastEvent: 'crash' });
    emit('consumer.rebalancing');
    expect(health.statuses()[0].joined).toBe(false);
    emit('consumer.group_join');
    expect(health.statuses()[0]).toMatchObject({ joined: true, lastEvent: 'group_join' });
    emit('consumer.rebalancing');
    expect(health.statuses()[0].joined).toBe(true);
    emit('consumer.disconnect');
    expect(health.statuses()[0].joined).toBe(false);
    emit('consumer.heartbeat');
    expect(health.statuses()[0].joined).toBe(true);
  });

  it('forgets an untracked consumer and stops listening to it', () => {
    const health = new KafkaConsumerHealth();
    const { consumer, emit } = fakeConsumer();
    health.track('replies', consumer);
    health.untrack(consumer);
    emit('consumer.crash');
    expect(health.statuses()).toEqual([]);
  });

  it('counts a consumer rebalancing for too long without rejoining as not consuming', () => {
    const health = new KafkaConsumerHealth();
    const { consumer, emit } = fakeConsumer();
    health.track('api-gateway-client', consumer);
    const start = Date.now();
    emit('consumer.rebalancing');
    expect(health.notConsuming(30_000, start + 29_000)).toEqual([]);
    expect(health.notConsuming(30_000, start + 31_000)).toMatchObject([
      { name: 'api-gateway-client', joined: true },
    ]);
    expect(health.notConsuming(0, start + 31_000)).toEqual([]);
    emit('consumer.rebalancing');
    emit('consumer.group_join');
    expect(health.notConsuming(30_000, start + 60_000)).toEqual([]);
    emit('consumer.crash');
    expect(health.notConsuming(30_000, start)).toMatchObject([{ lastEvent: 'crash' }]);
  });
});
