import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CheckpointStatus, LABEL_EXPIRY_DAYS } from '@consign/contracts';
import { CLOCK, Clock, DAY_MS } from '@consign/platform';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelTrackingConfig } from './label-tracking.config';
import { CONSIGN_CARRIER, TERMINAL_STATUSES } from './tracking-state';

export const EXPIRED_CHECKPOINT = {
  eventCode: 'EXPIRED',
  description: `No tracking update from the carrier for ${LABEL_EXPIRY_DAYS} days.`,
} as const;

const BATCH = 500;

/**
 * Marks `expired` every parcel not in a terminal state whose carrier has been silent for 30 days,
 * with an `expired` checkpoint at the sweep's time. Scheduled every LABEL_EXPIRY_SWEEP_MS on the
 * injected clock. Idempotent (an expired parcel is terminal) and safe with several replicas:
 * each batch claims its rows with FOR UPDATE SKIP LOCKED and re-checks them once locked, and
 * sets the status and writes the checkpoint in one statement.
 */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ExpirySweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly config: LabelTrackingConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runScheduled(), this.config.LABEL_EXPIRY_SWEEP_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** A scheduled run; skipped while the previous one is still going. */
  runScheduled(): Promise<number> {
    this.running ??= this.sweep()
      .catch((error: unknown) => {
        this.logger.error(`sweep failed: ${error instanceof Error ? error.message : error}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Expires what is due at the clock's time; returns how many parcels it expired. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - LABEL_EXPIRY_DAYS * DAY_MS);
    let expired = 0;
    for (;;) {
      const rows: unknown[] = await this.dataSource.query(
        `WITH due AS (
           SELECT id FROM "labels"."tracking"
            WHERE status <> ALL($3::text[]) AND last_event_at < $1 AND voided_at IS NULL
            ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED),
         marked AS (
           UPDATE "labels"."tracking" t SET status = '${CheckpointStatus.Expired}', status_at = $2
             FROM due WHERE t.id = due.id RETURNING t.id)
         INSERT INTO "labels"."checkpoint"
           (tracking_id, event_time, status, carrier_code, event_code, description, details)
         SELECT id, $2, '${CheckpointStatus.Expired}', '${CONSIGN_CARRIER}', $5, $6, NULL FROM marked
         ON CONFLICT DO NOTHING
         RETURNING tracking_id`,
        [
          cutoff,
          now,
          TERMINAL_STATUSES,
          BATCH,
          EXPIRED_CHECKPOINT.eventCode,
          EXPIRED_CHECKPOINT.description,
        ],
      );
      expired += rows.length;
      if (rows.length < BATCH) break;
    }
    if (expired > 0)
      this.logger.log(`expired ${expired} parcel(s) silent since ${cutoff.toISOString()}`);
    return expired;
  }
}
