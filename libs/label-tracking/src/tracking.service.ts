import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LabelErrorCode, LabelTrackingView, OrderTrackingView } from '@consign/contracts';
import { DomainError } from '@consign/core';
import { labelTrackingDatabase } from './label-tracking.database';
import { TrackingRepository } from './tracking.repository';

/** The spec's exact text for label tracking of an unknown label (endpoint 2, rule 2). */
export const TRACKING_NOT_FOUND_MESSAGE = 'Order not found.';

/**
 * Tracking reads: one statement per read, checkpoints latest first. Carrier events that came
 * after a label was voided are kept but left out (the label record lists them).
 */
@Injectable()
export class TrackingService {
  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly repository: TrackingRepository,
  ) {}

  async labelTracking(merchantId: number, labelId: number): Promise<LabelTrackingView> {
    const row = await this.repository.labelTracking(this.dataSource, merchantId, labelId);
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
    return this.repository.orderTracking(this.dataSource, merchantId, orderId);
  }
}
