import { Inject, Injectable } from '@nestjs/common';
import { LabelErrorCode, LabelEvent, LabelView } from '@consign/contracts';
import { CLOCK, Clock, DomainError } from '@consign/core';
import { CommandLedger, Outbox } from '@consign/messaging';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelService } from './label.service';
import { LabelRepository } from './label.repository';

/** The checkpoint a void writes: `exception`, the spec's status for a cancellation (with its text). */
export const LABEL_VOIDED_CHECKPOINT = {
  eventCode: 'LABEL_VOIDED',
  description:
    'Label voided by the merchant before the carrier scanned the parcel; its price is refunded.',
} as const;

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
    private readonly repository: LabelRepository,
  ) {}

  async void(merchantId: number, labelId: number): Promise<LabelView> {
    const now = this.clock.now();
    // Through the command ledger, with its answer read in the transaction: a retry with the same
    // Idempotency-Key is answered the label as this void left it.
    const voided = await this.commands.transaction(async (manager) => {
      const target = await this.repository.lockForVoid(manager, merchantId, labelId);
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
      await this.repository.markVoided(manager, labelId, now, refund, LABEL_VOIDED_CHECKPOINT);
      await this.outbox.add(manager, LabelEvent.Voided, {
        merchantId,
        aggregateId: labelId,
        payload: {
          label_id: labelId,
          carrier_code: target.carrier_code,
          tracking_number: target.tracking_number,
        },
      });
      return this.labels.get(merchantId, labelId, manager);
    });
    return voided;
  }
}
