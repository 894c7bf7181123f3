import type { Consumer } from 'kafkajs';

export interface KafkaConsumerStatus {
  name: string;
  /** Member of its group and consuming (or rebalancing: still a member, about to resume). */
  joined: boolean;
  /** The last lifecycle event seen, e.g. `heartbeat`, `crash`, `disconnect`. */
  lastEvent: string;
  /** Since when (epoch ms) it has been rebalancing without rejoining its group; unset otherwise. */
  rebalancingSince?: number;
}

/**
 * What readiness knows about the process's Kafka consumers, from kafkajs' instrumentation events.
 * A consumer is registered once `run()` resolved, i.e. after it joined its group; from then on a
 * heartbeat or a group join means it is a member, and a crash, stop or disconnect means it is
 * not (after a crash kafkajs restarts the consumer when the error is retriable; its next join
 * makes it a member again). A rebalance leaves it a member: every replica rebalances at once
 * during a rolling update, and failing readiness then would take them all out together; only
 * a rebalance that does not end (no group join for READINESS_MAX_REBALANCE_MS) does not.
 */
export class KafkaConsumerHealth {
  private readonly consumers = new Map<Consumer, KafkaConsumerStatus>();
  private readonly unsubscribers = new Map<Consumer, (() => void)[]>();

  track(name: string, consumer: Consumer): void {
    if (this.consumers.has(consumer)) return;
    const status: KafkaConsumerStatus = { name, joined: true, lastEvent: 'run' };
    this.consumers.set(consumer, status);
    const on = (event: string, joined: boolean) => () => {
      status.joined = joined;
      status.lastEvent = event;
      if (joined) delete status.rebalancingSince;
    };
    const rebalancing = () => {
      status.rebalancingSince ??= Date.now();
    };
    const { events } = consumer;
    this.unsubscribers.set(consumer, [
      consumer.on(events.GROUP_JOIN, on('group_join', true)),
      consumer.on(events.HEARTBEAT, on('heartbeat', true)),
      consumer.on(events.CRASH, on('crash', false)),
      consumer.on(events.STOP, on('stop', false)),
      consumer.on(events.DISCONNECT, on('disconnect', false)),
      consumer.on(events.REBALANCING, rebalancing),
    ]);
  }

  /** Forgets a consumer that is being stopped on purpose. */
  untrack(consumer: Consumer): void {
    for (const unsubscribe of this.unsubscribers.get(consumer) ?? []) unsubscribe();
    this.unsubscribers.delete(consumer);
    this.consumers.delete(consumer);
  }

  statuses(): KafkaConsumerStatus[] {
    return [...this.consumers.values()].map((status) => ({ ...status }));
  }

  /**
   * Consumers out of their group, or rebalancing for longer than `maxRebalanceMs` without
   * rejoining (a group stuck in CompletingRebalance after a broker freeze: the consumer is still
   * a member on paper, but nothing is consumed; for the gateway's reply consumer, no reply
   * arrives). `maxRebalanceMs` 0: a rebalance never counts.
   */
  notConsuming(maxRebalanceMs: number, now: number = Date.now()): KafkaConsumerStatus[] {
    return this.statuses().filter(
      (status) =>
        !status.joined ||
        (maxRebalanceMs > 0 &&
          status.rebalancingSince !== undefined &&
          now - status.rebalancingSince > maxRebalanceMs),
    );
  }
}

/**
 * The process's registry. One per process, like the consumers it watches: the bus server's, the
 * request-reply client's and every BatchTopicConsumer's register here when they start.
 */
export const kafkaConsumerHealth = new KafkaConsumerHealth();
