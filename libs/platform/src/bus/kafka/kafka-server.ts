import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { KafkaContext, KafkaOptions } from '@nestjs/microservices';
import type { Consumer } from 'kafkajs';
import { correlationIdOfHeaders, runWithCorrelationId } from '../../observability/correlation';
import { metrics } from '../../observability/metrics';
import { isLogLevelOn } from '../../observability/app-logger';
import { ConsumedMessageServerKafka } from './consumed-message-server';

/**
 * Nest's Kafka server, observed: every consumed command or event is handled inside the
 * correlation id its `x-correlation-id` header carries (a new one when it has none), so the
 * handler's log lines, its bus requests and the events it writes to the outbox carry it; and the
 * consumer group is registered for the consumer-lag gauge. (Its base keeps each message's key and
 * headers at hand for dead letters.)
 */
export class ObservedKafkaServer extends ConsumedMessageServerKafka {
  private readonly handlingLogger = new Logger('Bus');

  constructor(options: Required<KafkaOptions>['options']) {
    super(options);
    this.setOnProcessingStartHook((_transport, context, done) => {
      const kafka = context instanceof KafkaContext ? context : undefined;
      return runWithCorrelationId(
        correlationIdOfHeaders(kafka?.getMessage().headers) ?? randomUUID(),
        () => {
          if (kafka && isLogLevelOn('debug'))
            this.handlingLogger.debug(`handling ${kafka.getTopic()}`);
          return done();
        },
      );
    });
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    await super.bindEvents(consumer);
    metrics().consumerGroups.add(this.groupId, this.messageHandlers.keys());
  }
}
