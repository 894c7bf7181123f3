import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CarrierCheckpointEvent,
  CarrierTopic,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { AppConfig } from '@consign/config';
import {
  BatchTopicConsumer,
  ConsumedMessage,
  IN_PROCESS_BROKER,
  InProcessBroker,
} from '@consign/bus';
import { DeadLetter, parkDeadLetters } from '@consign/messaging';
import { CheckpointIngestor } from './checkpoint-ingestor';
import { LabelTrackingConfig } from './label-tracking.config';
import { labelTrackingDatabase } from './label-tracking.database';

/** The consumer group of `carrier.checkpoint.v1` (shared by every replica of the service). */
export const CHECKPOINT_CONSUMER_GROUP = 'label-tracking-service-checkpoints';
const CONSUMER = 'label-tracking';

/**
 * Consumes `carrier.checkpoint.v1` in batches. Each message is validated against the contract: a
 * valid one goes to the ingestor, one that is not is parked in the dead-letter table with the
 * reason (never silently dropped). The batch is acknowledged once both are written.
 *
 * With Kafka the consumer is pipelined (platform `BatchTopicConsumer`): up to
 * `CHECKPOINT_MAX_IN_FLIGHT` events are handed to the ingestor while the next fetch runs, and a
 * partition's offset is committed only past the batches already written. Batches may therefore be
 * written out of order, and a failed one is read again with those after it: the ingestor does not
 * depend on arrival order and ignores duplicates.
 */
@Injectable()
export class CarrierCheckpointConsumer
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('CarrierCheckpointConsumer');
  private readonly consumer: BatchTopicConsumer;
  /** Distributed mode: invalid events also go to `carrier.checkpoint.v1.dlt`. */
  private readonly toTopic: boolean;
  private readonly batchSize: number;

  constructor(
    config: AppConfig,
    @Inject(IN_PROCESS_BROKER) broker: InProcessBroker | null,
    private readonly ingestor: CheckpointIngestor,
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    settings: LabelTrackingConfig,
  ) {
    this.toTopic = Boolean(config.KAFKA_BROKERS);
    this.batchSize = settings.CHECKPOINT_BATCH_SIZE;
    this.consumer = new BatchTopicConsumer(config, broker, {
      topic: CarrierTopic.Checkpoint,
      groupId: CHECKPOINT_CONSUMER_GROUP,
      handler: (messages) => this.handle(messages),
      partitionsConsumedConcurrently: 4,
      maxInFlightMessages: settings.CHECKPOINT_MAX_IN_FLIGHT,
      maxBytesPerPartition: settings.CHECKPOINT_FETCH_BYTES,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer.stop();
    await this.ingestor.drain();
  }

  async handle(messages: ConsumedMessage[]): Promise<{ deadLettered: number }> {
    const valid: CarrierCheckpointEvent[] = [];
    const invalid: DeadLetter[] = [];
    for (const { value, key, headers, raw } of messages) {
      const result = validateContract(CarrierCheckpointEvent, value);
      if (result.ok) valid.push(result.value);
      else
        invalid.push({
          consumer: CONSUMER,
          topic: CarrierTopic.Checkpoint,
          value,
          error: validationMessage(result.errors),
          attempts: 1,
          key,
          headers: headers ?? {},
          raw,
        });
    }
    if (invalid.length > 0) {
      // Parked (table, and `carrier.checkpoint.v1.dlt` with Kafka) before the batch is
      // acknowledged: an invalid event never blocks its partition and is never lost.
      this.logger.warn(`parking ${invalid.length} invalid carrier event(s): ${invalid[0].error}`);
      await this.dataSource.transaction((manager) =>
        parkDeadLetters(manager, 'labels', invalid, { toTopic: this.toTopic }),
      );
    }
    // A fetched batch can be larger than a transaction should be: the ingestor gets it in
    // CHECKPOINT_BATCH_SIZE pieces (submitted together, written in order).
    const pieces: Promise<unknown>[] = [];
    for (let i = 0; i < valid.length; i += this.batchSize)
      pieces.push(this.ingestor.ingest(valid.slice(i, i + this.batchSize)));
    await Promise.all(pieces);
    return { deadLettered: invalid.length };
  }
}
