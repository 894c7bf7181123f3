import { Inject, Injectable } from '@nestjs/common';
import {
  CheckpointStatus,
  LabelErrorCode,
  LabelEvent,
  LabelPriceView,
  LabelView,
} from '@consign/contracts';
import { CLOCK, Clock, CommandLedger, DomainError, Outbox } from '@consign/platform';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelService } from './label.service';
import { isoUtc } from './sql-time';
import { CONSIGN_CARRIER } from './tracking-state';

/** The checkpoint a void writes: `exception`, the spec's status for a cancellation (with its text). */
export const LABEL_VOIDED_CHECKPOINT = {
  eventCode: 'LABEL_VOIDED',
  description:
    'Label voided by the merchant before the carrier scanned the parcel; its price is refunded.',
} as const;

interface VoidTarget {
  id: number;
  voided: boolean;
  price: LabelPriceView | null;
  carrier_code: string | null;
  tracking_number: string | null;
  scan_time: string | null;
  scan_description: string | null;
}

/**
 * Voiding a label: allowed until the carrier's first scan (a carrier checkpoint beyond
 * `information_received`); idempotent. One transaction locks the parcel (as the checkpoint writer
 * does, so a carrier event is either before the void and refuses it, or after and is flagged),
 * marks it voided, records the refund, writes the `exception` checkpoint and announces
 * `label.label.voided.v1` through the outbox for the carrier.
 */
@Injectable()
export class LabelVoidService {
  constructor(
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    @Inject(labelTrackingDatabase.commands) private readonly commands: CommandLedger,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly labels: LabelService,
  ) {}

  async void(merchantId: number, labelId: number): Promise<LabelView> {
    const now = this.clock.now();
    // Through the command ledger, with its answer read in the transaction: a retry with the same
    // Idempotency-Key is answered the label as this void left it.
    let voidedNow = false;
    const voided = await this.commands.transaction(async (manager) => {
      const [target]: VoidTarget[] = await manager.query(
        `SELECT t.id, t.voided_at IS NOT NULL AS voided, l.price, t.carrier_code, t.tracking_number,
                ${isoUtc('s.event_time')} AS scan_time, s.description AS scan_description
           FROM "labels"."tracking" t JOIN "labels"."label" l ON l.id = t.id
           LEFT JOIN LATERAL (
             SELECT c.event_time, c.description FROM "labels"."checkpoint" c
              WHERE c.tracking_id = t.id AND c.carrier_code <> $3 AND c.status <> $4
                AND NOT c.after_void
              ORDER BY c.event_time, c.id LIMIT 1) s ON true
          WHERE t.id = $1 AND l.merchant_id = $2
          FOR NO KEY UPDATE OF t`,
        [labelId, merchantId, CONSIGN_CARRIER, CheckpointStatus.InformationReceived],
      );
      if (!target) throw new DomainError(LabelErrorCode.LabelNotFound, 'Label not found.');
      if (target.voided) return this.labels.get(merchantId, labelId, manager);
      if (target.scan_time !== null)
        throw new DomainError(
          LabelErrorCode.AlreadyScanned,
          `Label ${labelId} cannot be voided: the carrier scanned the parcel at ${target.scan_time} ("${target.scan_description}"). Ask the carrier to return it instead.`,
        );
      const refund = {
        amount: target.price?.amount ?? null,
        currency: target.price?.currency ?? null,
      };
      await manager.query(
        `WITH parcel AS (
           UPDATE "labels"."tracking"
              SET voided_at = $2, status = '${CheckpointStatus.Exception}',
                  status_at = GREATEST(status_at, $2)
            WHERE id = $1),
         label AS (UPDATE "labels"."label" SET refund = $3 WHERE id = $1)
         INSERT INTO "labels"."checkpoint" (tracking_id, event_time, status, carrier_code, event_code, description)
         VALUES ($1, $2, '${CheckpointStatus.Exception}', '${CONSIGN_CARRIER}', $4, $5)`,
        [
          labelId,
          now,
          JSON.stringify(refund),
          LABEL_VOIDED_CHECKPOINT.eventCode,
          LABEL_VOIDED_CHECKPOINT.description,
        ],
      );
      await this.outbox.add(manager, LabelEvent.Voided, {
        merchantId,
        aggregateId: labelId,
        payload: {
          label_id: labelId,
          carrier_code: target.carrier_code,
          tracking_number: target.tracking_number,
        },
      });
      voidedNow = true;
      return this.labels.get(merchantId, labelId, manager);
    });
    if (voidedNow) this.outbox.nudge();
    return voided;
  }
}
