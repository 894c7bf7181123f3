import { Injectable } from '@nestjs/common';
import {
  CheckpointStatus,
  CreateLabelRequest,
  CustomsForm,
  LabelPriceView,
  LabelView,
  LateCarrierEventView,
} from '@consign/contracts';
import { Sql } from '@consign/database';
import { isoUtc } from './sql-time';
import { CONSIGN_CARRIER } from './tracking-state';
import { labelCheckpointsJson } from './tracking.repository';

const LABEL = '"labels"."label"';
const TRACKING = '"labels"."tracking"';
const CHECKPOINT = '"labels"."checkpoint"';

/** A label with its parcel, as the label record shows it. */
export interface LabelRecord {
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
  price: LabelPriceView | null;
  customs_form: CustomsForm | null;
  refund: { amount: number | null; currency: string | null } | null;
  voided_time: string | null;
  late_events: LateCarrierEventView[];
  carrier_code: string | null;
  status: CheckpointStatus;
  tracking_courier: string | null;
  tracking_number: string | null;
  delivered_time: string | null;
}

/** What a void needs to know of a label, read with its parcel locked. */
export interface VoidTarget {
  id: number;
  voided: boolean;
  price: LabelPriceView | null;
  carrier_code: string | null;
  tracking_number: string | null;
  /** The carrier's first scan, if the carrier scanned the parcel. */
  scan_time: string | null;
  scan_description: string | null;
}

/** A label's first checkpoint, or the one its void writes. */
export interface LabelCheckpoint {
  eventCode: string;
  description: string;
}

/**
 * SQL of the label aggregate: a label is a parcel (labels.tracking, same id) with the label's
 * own row; it is created with its first checkpoint and read back in one statement each.
 */
@Injectable()
export class LabelRepository {
  /** The parcel, the label and its first checkpoint, in one statement; answers the label's id. */
  async insert(
    sql: Sql,
    label: {
      merchantId: number;
      now: Date;
      request: CreateLabelRequest;
      carrier: string;
      price: LabelPriceView;
      customsForm: CustomsForm | null;
      checkpoint: LabelCheckpoint;
    },
  ): Promise<number> {
    const { request } = label;
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    const [row]: { id: number }[] = await sql.query(
      `WITH tracking AS (
         INSERT INTO ${TRACKING} (merchant_id, carrier_code, status, status_at, last_event_at, created_at)
         VALUES ($1, $20, '${CheckpointStatus.InformationReceived}', $2, $2, $2) RETURNING id),
       label AS (
         INSERT INTO ${LABEL} (id, merchant_id, reference, service_code, inco_term, currency,
           weight_unit, length, width, height, length_unit, expect_pickup_time, shipping_address,
           shipper_address, items, package_attributes, metadata, price, customs_form, created_at)
         SELECT id, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $21, $22, $2
           FROM tracking)
       INSERT INTO ${CHECKPOINT} (tracking_id, event_time, status, carrier_code, event_code, description)
       SELECT id, $2, '${CheckpointStatus.InformationReceived}', '${CONSIGN_CARRIER}', $18, $19 FROM tracking
       RETURNING tracking_id AS id`,
      [
        label.merchantId,
        label.now,
        request.reference,
        request.service.service_code,
        request.service.inco_term ?? null,
        request.currency,
        request.weight_unit,
        request.length ?? null,
        request.width ?? null,
        request.height ?? null,
        request.length_unit ?? null,
        request.expect_pickup_time ?? null,
        json(request.shipping_address),
        json(request.shipper_address),
        json(request.items),
        json(request.package_attributes),
        json(request.metadata),
        label.checkpoint.eventCode,
        label.checkpoint.description,
        label.carrier,
        json(label.price),
        label.customsForm,
      ],
    );
    return row.id;
  }

  /** The label with its parcel and the carrier events that came after its void. */
  async record(sql: Sql, merchantId: number, labelId: number): Promise<LabelRecord | undefined> {
    const [row]: LabelRecord[] = await sql.query(
      `SELECT l.id, l.reference, l.service_code, l.inco_term, l.currency, l.weight_unit,
              l.length, l.width, l.height, l.length_unit, l.expect_pickup_time,
              l.shipping_address, l.shipper_address, l.items, l.package_attributes, l.metadata,
              ${isoUtc('l.created_at')} AS created_time, l.price, l.customs_form, l.refund,
              t.carrier_code, t.status, t.tracking_courier, t.tracking_number,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              ${isoUtc('t.voided_at')} AS voided_time,
              ${labelCheckpointsJson('c.after_void')} AS late_events
         FROM ${LABEL} l JOIN ${TRACKING} t ON t.id = l.id
        WHERE l.id = $1 AND l.merchant_id = $2`,
      [labelId, merchantId],
    );
    return row;
  }

  /**
   * Locks the label's parcel (FOR NO KEY UPDATE, as the checkpoint writer does) and reads what a
   * void needs: whether it is voided, its price, and the carrier's first scan (a carrier
   * checkpoint beyond `information_received`, not after a void).
   */
  async lockForVoid(
    sql: Sql,
    merchantId: number,
    labelId: number,
  ): Promise<VoidTarget | undefined> {
    const [target]: VoidTarget[] = await sql.query(
      `SELECT t.id, t.voided_at IS NOT NULL AS voided, l.price, t.carrier_code, t.tracking_number,
              ${isoUtc('s.event_time')} AS scan_time, s.description AS scan_description
         FROM ${TRACKING} t JOIN ${LABEL} l ON l.id = t.id
         LEFT JOIN LATERAL (
           SELECT c.event_time, c.description FROM ${CHECKPOINT} c
            WHERE c.tracking_id = t.id AND c.carrier_code <> $3 AND c.status <> $4
              AND NOT c.after_void
            ORDER BY c.event_time, c.id LIMIT 1) s ON true
        WHERE t.id = $1 AND l.merchant_id = $2
        FOR NO KEY UPDATE OF t`,
      [labelId, merchantId, CONSIGN_CARRIER, CheckpointStatus.InformationReceived],
    );
    return target;
  }

  /**
   * Marks the parcel voided at `now` (status `exception`), records the refund on the label and
   * writes the void's `exception` checkpoint, in one statement.
   */
  async markVoided(
    sql: Sql,
    labelId: number,
    now: Date,
    refund: { amount: number | null; currency: string | null },
    checkpoint: LabelCheckpoint,
  ): Promise<void> {
    await sql.query(
      `WITH parcel AS (
         UPDATE ${TRACKING}
            SET voided_at = $2, status = '${CheckpointStatus.Exception}',
                status_at = GREATEST(status_at, $2)
          WHERE id = $1),
       label AS (UPDATE ${LABEL} SET refund = $3 WHERE id = $1)
       INSERT INTO ${CHECKPOINT} (tracking_id, event_time, status, carrier_code, event_code, description)
       VALUES ($1, $2, '${CheckpointStatus.Exception}', '${CONSIGN_CARRIER}', $4, $5)`,
      [labelId, now, JSON.stringify(refund), checkpoint.eventCode, checkpoint.description],
    );
  }
}
