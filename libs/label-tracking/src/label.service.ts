import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  CarrierServiceView,
  CheckpointStatus,
  CreateLabelRequest,
  CustomsForm,
  LABEL_DOCUMENT_CONTENT_TYPES,
  LABEL_DOCUMENT_FORMATS,
  LABEL_VOIDED,
  LabelDocumentLinkView,
  LabelDocumentType,
  LabelErrorCode,
  LabelEvent,
  LabelPriceView,
  LabelView,
  LateCarrierEventView,
  RatingTopic,
} from '@consign/contracts';
import { CLOCK, Clock, CommandBus, CommandLedger, DomainError, Outbox } from '@consign/platform';
import { freightRequestOf, labelRefusal } from './label-pricing';
import { labelTrackingDatabase } from './label-tracking.database';
import { isoUtc } from './sql-time';
import { CONSIGN_CARRIER } from './tracking-state';
import { labelCheckpointsJson } from './tracking.service';
import { RatingClient } from '@consign/rating-client';

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

/** Labels: creating one (with its first checkpoint) and reading the record back. */
@Injectable()
export class LabelService {
  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    @Inject(labelTrackingDatabase.commands) private readonly commands: CommandLedger,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reference: RatingClient,
    private readonly bus: CommandBus,
  ) {}

  /**
   * The label's service and price, asked of rating-service before any transaction opens: the
   * service must exist, offer the inco term and carry the declared contents; the price is its
   * freight calculation for the parcel. Rating's own refusals (no zone, over the weight limit…)
   * and unavailability come back with rating's codes.
   */
  private async quote(
    merchantId: number,
    request: CreateLabelRequest,
  ): Promise<{
    service: CarrierServiceView;
    price: LabelPriceView;
    customsForm: CustomsForm | null;
  }> {
    const services = await this.reference.services(merchantId);
    const refusal = labelRefusal(request, services);
    if (refusal)
      throw new DomainError(
        refusal.kind === 'invalid_service'
          ? LabelErrorCode.InvalidService
          : LabelErrorCode.RestrictedContents,
        refusal.message,
      );
    const service = services.find(
      (s) => s.service_code === request.service.service_code,
    ) as CarrierServiceView;
    const reply = await this.bus.request(
      RatingTopic.CalculateFreight,
      {
        merchant_id: merchantId,
        request: freightRequestOf(request, service),
        price_currency: request.currency,
      },
      { key: String(merchantId) },
    );
    if (!reply.ok) throw new DomainError(reply.error.code, reply.error.message);
    const { carrier_code: _carrier, message: _message, customs_form, ...price } = reply.data;
    return { service, price, customsForm: customs_form };
  }

  async create(merchantId: number, request: CreateLabelRequest): Promise<number> {
    const { service, price, customsForm } = await this.quote(merchantId, request);
    const now = this.clock.now();
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    const id = await this.commands.transaction(async (manager) => {
      // One statement for the parcel, the label and its first checkpoint.
      const [row]: { id: number }[] = await manager.query(
        `WITH tracking AS (
           INSERT INTO "labels"."tracking" (merchant_id, carrier_code, status, status_at, last_event_at, created_at)
           VALUES ($1, $20, '${CheckpointStatus.InformationReceived}', $2, $2, $2) RETURNING id),
         label AS (
           INSERT INTO "labels"."label" (id, merchant_id, reference, service_code, inco_term, currency,
             weight_unit, length, width, height, length_unit, expect_pickup_time, shipping_address,
             shipper_address, items, package_attributes, metadata, price, customs_form, created_at)
           SELECT id, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $21, $22, $2
             FROM tracking)
         INSERT INTO "labels"."checkpoint" (tracking_id, event_time, status, carrier_code, event_code, description)
         SELECT id, $2, '${CheckpointStatus.InformationReceived}', '${CONSIGN_CARRIER}', $18, $19 FROM tracking
         RETURNING tracking_id AS id`,
        [
          merchantId,
          now,
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
          LABEL_CREATED_CHECKPOINT.eventCode,
          LABEL_CREATED_CHECKPOINT.description,
          service.carrier,
          json(price),
          customsForm,
        ],
      );
      await this.outbox.add(manager, LabelEvent.Created, {
        merchantId,
        aggregateId: row.id,
        payload: {
          label_id: row.id,
          service_code: request.service.service_code,
          carrier_code: service.carrier,
        },
      });
      return row.id;
    });
    this.outbox.nudge();
    return id;
  }

  /** The label as the merchant sees it; `db`: a transaction's manager, to read its own writes. */
  async get(
    merchantId: number,
    labelId: number,
    db: Pick<EntityManager, 'query'> = this.dataSource.manager,
  ): Promise<LabelView> {
    const [row]: LabelRecord[] = await db.query(
      `SELECT l.id, l.reference, l.service_code, l.inco_term, l.currency, l.weight_unit,
              l.length, l.width, l.height, l.length_unit, l.expect_pickup_time,
              l.shipping_address, l.shipper_address, l.items, l.package_attributes, l.metadata,
              ${isoUtc('l.created_at')} AS created_time, l.price, l.customs_form, l.refund,
              t.carrier_code, t.status, t.tracking_courier, t.tracking_number,
              ${isoUtc('t.delivered_time')} AS delivered_time,
              ${isoUtc('t.voided_at')} AS voided_time,
              ${labelCheckpointsJson('c.after_void')} AS late_events
         FROM "labels"."label" l JOIN "labels"."tracking" t ON t.id = l.id
        WHERE l.id = $1 AND l.merchant_id = $2`,
      [labelId, merchantId],
    );
    if (!row) throw new DomainError(LabelErrorCode.LabelNotFound, 'Label not found.');
    return {
      id: row.id,
      status: row.voided_time !== null ? LABEL_VOIDED : row.status,
      reference: row.reference,
      service: {
        service_code: row.service_code,
        ...(row.inco_term !== null ? { inco_term: row.inco_term } : {}),
      },
      carrier: row.carrier_code,
      price: row.price,
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
      customs_form: row.customs_form,
      documents:
        row.voided_time === null && row.tracking_number !== null
          ? documentLinks(row.id, row.customs_form)
          : [],
      void:
        row.voided_time === null
          ? null
          : {
              voided_time: row.voided_time,
              refunded_amount: row.refund?.amount ?? null,
              refunded_currency: row.refund?.currency ?? null,
              late_carrier_events: row.late_events,
            },
    };
  }
}

/** The documents of a numbered label: the label in every format, and its customs form. */
export function documentLinks(
  labelId: number,
  customsForm: CustomsForm | null,
): LabelDocumentLinkView[] {
  const types = customsForm
    ? [LabelDocumentType.Label, LabelDocumentType.Customs]
    : [LabelDocumentType.Label];
  return types.flatMap((type) =>
    LABEL_DOCUMENT_FORMATS[type].map((format) => ({
      type,
      format,
      content_type: LABEL_DOCUMENT_CONTENT_TYPES[format],
      url: `/2026-05/cloud/label/${labelId}/document?format=${format}${type === LabelDocumentType.Customs ? '&type=customs' : ''}`,
    })),
  );
}
