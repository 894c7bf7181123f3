import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CheckpointStatus,
  CreateLabelRequest,
  LabelErrorCode,
  LabelEvent,
  LabelView,
} from '@consign/contracts';
import { CLOCK, Clock, DomainError, Outbox } from '@consign/platform';
import { CheckpointEntity } from './checkpoint.entity';
import { LabelEntity } from './label.entity';
import { labelTrackingDatabase } from './label-tracking.database';
import { isoUtc } from './sql-time';
import { CONSIGN_CARRIER } from './tracking-state';
import { TrackingEntity } from './tracking.entity';

/** The checkpoint every label starts with (spec endpoint 2, rule 1). */
export const LABEL_CREATED_CHECKPOINT = {
  eventCode: 'LABEL_CREATED',
  description: 'Shipment information received: label created.',
} as const;

interface LabelRecord {
  id: number;
  reference: string;
  service_code: string;
  inco_term: string | null;
  currency: string;
  weight_unit: LabelView['weight_unit'];
  length: number | null;
  width: number | null;
  height: number | null;
  length_unit: LabelView['length_unit'];
  expect_pickup_time: string | null;
  shipping_address: LabelView['shipping_address'];
  shipper_address: LabelView['shipper_address'];
  items: LabelView['items'];
  package_attributes: LabelView['package_attributes'];
  metadata: LabelView['metadata'];
  created_time: string;
  status: CheckpointStatus;
  tracking_courier: string | null;
  tracking_number: string | null;
  delivered_time: string | null;
}

/** Labels: creating one (with its first checkpoint) and reading the record back. */
@Injectable()
export class LabelService {
  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(merchantId: number, request: CreateLabelRequest): Promise<number> {
    const now = this.clock.now();
    const id = await this.dataSource.transaction(async (manager) => {
      const tracking = await manager.getRepository(TrackingEntity).save({
        merchantId,
        carrierCode: null,
        status: CheckpointStatus.InformationReceived,
        statusAt: now,
        lastEventAt: now,
        createdAt: now,
      });
      await manager.insert(LabelEntity, {
        id: tracking.id,
        merchantId,
        reference: request.reference,
        serviceCode: request.service.service_code,
        incoTerm: request.service.inco_term ?? null,
        currency: request.currency,
        weightUnit: request.weight_unit,
        length: request.length ?? null,
        width: request.width ?? null,
        height: request.height ?? null,
        lengthUnit: request.length_unit ?? null,
        expectPickupTime: request.expect_pickup_time ?? null,
        shippingAddress: request.shipping_address,
        shipperAddress: request.shipper_address,
        items: request.items,
        packageAttributes: request.package_attributes ?? null,
        metadata: request.metadata ?? null,
        createdAt: now,
      });
      await manager.insert(CheckpointEntity, {
        trackingId: tracking.id,
        eventTime: now,
        status: CheckpointStatus.InformationReceived,
        carrierCode: CONSIGN_CARRIER,
        eventCode: LABEL_CREATED_CHECKPOINT.eventCode,
        description: LABEL_CREATED_CHECKPOINT.description,
        details: null,
      });
      await this.outbox.add(manager, LabelEvent.Created, {
        merchantId,
        aggregateId: tracking.id,
        payload: {
          label_id: tracking.id,
          service_code: request.service.service_code,
          carrier_code: null,
        },
      });
      return tracking.id;
    });
    this.outbox.nudge();
    return id;
  }

  async get(merchantId: number, labelId: number): Promise<LabelView> {
    const [row]: LabelRecord[] = await this.dataSource.query(
      `SELECT l.id, l.reference, l.service_code, l.inco_term, l.currency, l.weight_unit,
              l.length, l.width, l.height, l.length_unit, l.expect_pickup_time,
              l.shipping_address, l.shipper_address, l.items, l.package_attributes, l.metadata,
              ${isoUtc('l.created_at')} AS created_time, t.status, t.tracking_courier,
              t.tracking_number, ${isoUtc('t.delivered_time')} AS delivered_time
         FROM "labels"."label" l JOIN "labels"."tracking" t ON t.id = l.id
        WHERE l.id = $1 AND l.merchant_id = $2`,
      [labelId, merchantId],
    );
    if (!row) throw new DomainError(LabelErrorCode.LabelNotFound, 'Label not found.');
    return {
      id: row.id,
      status: row.status,
      reference: row.reference,
      service: {
        service_code: row.service_code,
        ...(row.inco_term !== null ? { inco_term: row.inco_term } : {}),
      },
      shipping_address: row.shipping_address,
      shipper_address: row.shipper_address,
      currency: row.currency,
      weight_unit: row.weight_unit,
      length: row.length,
      width: row.width,
      height: row.height,
      length_unit: row.length_unit,
      expect_pickup_time: row.expect_pickup_time,
      items: row.items,
      package_attributes: row.package_attributes,
      metadata: row.metadata,
      tracking_courier: row.tracking_courier,
      tracking_number: row.tracking_number,
      delivered_time: row.delivered_time,
      created_time: row.created_time,
    };
  }
}
