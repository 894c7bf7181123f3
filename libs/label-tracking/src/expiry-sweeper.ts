import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LABEL_EXPIRY_DAYS } from '@consign/contracts';
import { CLOCK, Clock, DAY_MS, PeriodicTask } from '@consign/core';
import { Outbox } from '@consign/messaging';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelTrackingConfig } from './label-tracking.config';
import { TERMINAL_STATUSES } from './tracking-state';
import { TrackingRepository } from './tracking.repository';
import { announceTrackingUpdates } from './tracking-updates';

export const EXPIRED_CHECKPOINT = {
  eventCode: 'EXPIRED',
  description: `No tracking update from the carrier for ${LABEL_EXPIRY_DAYS} days.`,
} as const;

const BATCH = 500;

/**
 * Marks `expired` every parcel not in a terminal state whose carrier has been silent for 30 days,
 * with an `expired` checkpoint at the sweep's time, and announces the change as the checkpoint
 * writer does (`label.tracking.updated.v1` per label, `label.order_tracking.updated.v1` per order
 * with a shipment among them, for webhooks) in the same transaction. Scheduled every
 * LABEL_EXPIRY_SWEEP_MS (runPeriodically) on the injected clock. Idempotent (an expired parcel is
 * terminal) and safe with several replicas: each batch claims its rows with FOR UPDATE SKIP
 * LOCKED and re-checks them once locked, and sets the status and writes the checkpoint in one
 * statement.
 */
@Injectable()
export class ExpirySweeper extends PeriodicTask {
  private readonly logger = new Logger('ExpirySweeper');

  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly config: LabelTrackingConfig,
    private readonly parcels: TrackingRepository,
  ) {
    super();
  }

  protected get intervalMs(): number {
    return this.config.LABEL_EXPIRY_SWEEP_MS;
  }

  protected runOnce(): Promise<number> {
    return this.sweep();
  }

  protected reportFailure(message: string): void {
    this.logger.error(`sweep failed: ${message}`);
  }

  /** Expires what is due at the clock's time; returns how many parcels it expired. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - LABEL_EXPIRY_DAYS * DAY_MS);
    let expired = 0;
    for (;;) {
      const rows = await this.dataSource.transaction(async (manager) => {
        const marked = await this.parcels.expireSilent(manager, {
          cutoff,
          now,
          terminal: TERMINAL_STATUSES,
          batch: BATCH,
          checkpoint: EXPIRED_CHECKPOINT,
        });
        await announceTrackingUpdates(manager, this.outbox, this.parcels, marked);
        return marked;
      });
      expired += rows.length;
      if (rows.length < BATCH) break;
    }
    if (expired > 0)
      this.logger.log(`expired ${expired} parcel(s) silent since ${cutoff.toISOString()}`);
    return expired;
  }
}
