import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CheckpointStatus,
  LabelErrorCode,
  LabelTrackingView,
  OrderTrackingView,
} from '@consign/contracts';
import { DomainError } from '@consign/platform';
import { labelTrackingDatabase } from './label-tracking.database';
import { isoUtc, plainUtc } from './sql-time';

/** The spec's exact text for label tracking of an unknown label (endpoint 2, rule 2). */
export const TRACKING_NOT_FOUND_MESSAGE = 'Order not found.';

/**
 * Tracking reads: one statement per read, checkpoints latest first. Carrier events that came
 * after a label was voided are kept but left out (the label record lists them).
 */
@Injectable()
export class TrackingService {
  constructor(@Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource) {}

  async labelTracking(merchantId: number, labelId: number): Promise<LabelTrackingView> {
    const [row]: LabelTrackingView[] = await this.dataSource.query(
      `SELECT t.tracking_courier, t.tracking_number,
              ${isoUtc('t.outbound_time')} AS outbound_time,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              ${labelCheckpointsJson('NOT c.after_void')} AS checkpoints
         FROM "labels"."label" l JOIN "labels"."tracking" t ON t.id = l.id
        WHERE l.id = $1 AND l.merchant_id = $2`,
      [labelId, merchantId],
    );
    if (!row) throw new DomainError(LabelErrorCode.TrackingNotFound, TRACKING_NOT_FOUND_MESSAGE);
    return row;
  }

  /**
   * The tracking of each shipment of an order (endpoint 8), in the spec's order-tracking format:
   * checkpoint `local_time` as `yyyy-MM-dd HH:mm:ss` (UTC) and `transit` for `in_transit`, as
   * in the spec's sample. Empty when the order has no shipment (or is not the merchant's: the
   * gateway tells those apart with order-service).
   */
  async orderTracking(merchantId: number, orderId: number): Promise<OrderTrackingView[]> {
    return this.dataSource.query(
      `SELECT t.tracking_courier, t.tracking_number,
              ${isoUtc('t.outbound_time')} AS outbound_time,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              COALESCE((
                SELECT json_agg(json_build_object(
                         'local_time', ${plainUtc('c.event_time')}, 'details', c.details,
                         'description', c.description,
                         'status', CASE c.status WHEN '${CheckpointStatus.InTransit}' THEN '${ORDER_TRANSIT_STATUS}'
                                   ELSE c.status END)
                       ORDER BY c.event_time DESC, c.id DESC)
                  FROM "labels"."checkpoint" c WHERE c.tracking_id = t.id AND NOT c.after_void),
                '[]'::json) AS checkpoints
         FROM "labels"."shipment" s JOIN "labels"."tracking" t ON t.id = s.tracking_id
        WHERE s.order_id = $1 AND s.merchant_id = $2
        ORDER BY s.id`,
      [orderId, merchantId],
    );
  }
}

/**
 * A parcel's (`t`) checkpoints as a JSON array in the label-tracking format, latest first: those
 * matching `condition` on `c` (a fixed SQL fragment, never input).
 */
export function labelCheckpointsJson(condition: string): string {
  return `COALESCE((
    SELECT json_agg(json_build_object(
             'local_time', ${isoUtc('c.event_time')}, 'details', c.details,
             'description', c.description, 'status', c.status)
           ORDER BY c.event_time DESC, c.id DESC)
      FROM "labels"."checkpoint" c WHERE c.tracking_id = t.id AND ${condition}), '[]'::json)`;
}

/** Order tracking's name for in_transit (the spec's sample shows `transit`). */
export const ORDER_TRANSIT_STATUS = 'transit';
