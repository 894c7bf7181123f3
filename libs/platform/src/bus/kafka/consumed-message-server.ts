import { ServerKafka } from '@nestjs/microservices';
import type { KafkaOptions } from '@nestjs/microservices';
import type { EachMessagePayload } from 'kafkajs';
import { headersToStrings, withConsumedMessage } from '../../messaging/dead-letter';

/**
 * Nest's Kafka server, each message handled with its key and headers known to
 * `currentConsumedMessage()` (Nest hands `@EventPattern` handlers the value only): the inbox copies
 * them onto a dead letter, as `<topic>.dlt` promises.
 */
export class ConsumedMessageServerKafka extends ServerKafka {
  constructor(options: Required<KafkaOptions>['options']) {
    super(options);
  }

  override handleMessage(payload: EachMessagePayload): Promise<unknown> {
    const { key, headers } = payload.message;
    return withConsumedMessage(
      { key: key === null ? null : key.toString('utf8'), headers: headersToStrings(headers) },
      () => super.handleMessage(payload),
    );
  }
}
