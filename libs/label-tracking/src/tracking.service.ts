import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LabelErrorCode, LabelTrackingView } from '@consign/contracts';
import { DomainError } from '@consign/platform';
import { labelTrackingDatabase } from './label-tracking.database';
import { isoUtc } from './sql-time';

/** The spec's exact text for label tracking of an unknown label (endpoint 2, rule 2). */
export const TRACKING_NOT_FOUND_MESSAGE = 'Order not found.';

/** Tracking reads: one statement per read, checkpoints latest first. */
@Injectable()
export class TrackingService {
  constructor(@Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource) {}

  async labelTracking(merchantId: number, labelId: number): Promise<LabelTrackingView> {
    const [row]: LabelTrackingView[] = await this.dataSource.query(
      `SELECT t.tracking_courier, t.tracking_number,
              ${isoUtc('t.outbound_time')} AS outbound_time,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              COALESCE((
                SELECT json_agg(json_build_object(
                         'local_time', ${isoUtc('c.event_time')}, 'details', c.details,
                         'description', c.description, 'status', c.status)
                       ORDER BY c.event_time DESC, c.id DESC)
                  FROM "labels"."checkpoint" c WHERE c.tracking_id = t.id), '[]'::json) AS checkpoints
         FROM "labels"."label" l JOIN "labels"."tracking" t ON t.id = l.id
        WHERE l.id = $1 AND l.merchant_id = $2`,
      [labelId, merchantId],
    );
    if (!row) throw new DomainError(LabelErrorCode.TrackingNotFound, TRACKING_NOT_FOUND_MESSAGE);
    return row;
  }
}
