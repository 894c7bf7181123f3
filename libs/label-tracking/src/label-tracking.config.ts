import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '@consign/config';

/** label-tracking-service's own settings (read with loadConfigOf; every one has a default). */
export class LabelTrackingConfig {
  /** How often the expiry sweep looks for parcels with no carrier event for 30 days. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  LABEL_EXPIRY_SWEEP_MS = 3_600_000;

  /** Most carrier events written in one transaction. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  CHECKPOINT_BATCH_SIZE = 2000;

  /** How long the first of a batch of carrier events waits for more when a writer is free. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  CHECKPOINT_BATCH_DELAY_MS = 5;

  /**
   * Carrier-event transactions written at once, each on its own connection, so that one batch is
   * prepared in Node while another is in PostgreSQL. Capped by the connection pool: one on the
   * embedded database.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  CHECKPOINT_WRITERS = 2;

  /**
   * Kafka: most carrier events handed to the writer and not yet persisted. Below it the consumer
   * fetches the next messages while the writer writes; at it, fetching waits.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  CHECKPOINT_MAX_IN_FLIGHT = 20_000;

  /** Kafka: most bytes fetched per partition in one fetch (kafkajs maxBytesPerPartition). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(67_108_864)
  CHECKPOINT_FETCH_BYTES = 524_288;
}
