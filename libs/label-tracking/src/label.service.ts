import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CarrierServiceView,
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
  RatingTopic,
} from '@consign/contracts';
import { CLOCK, Clock, DomainError } from '@consign/core';
import { CommandBus } from '@consign/bus';
import { CommandLedger, Outbox } from '@consign/messaging';
import { Sql } from '@consign/database';
import { freightRequestOf, labelRefusal } from './label-pricing';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelRepository } from './label.repository';
import { RatingClient } from '@consign/rating-client';

/** The checkpoint every label starts with (spec endpoint 2, rule 1). */
export const LABEL_CREATED_CHECKPOINT = {
  eventCode: 'LABEL_CREATED',
  description: 'Shipment information received: label created.',
} as const;

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
    private readonly repository: LabelRepository,
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
    const id = await this.commands.transaction(async (manager) => {
      // One statement for the parcel, the label and its first checkpoint.
      const labelId = await this.repository.insert(manager, {
        merchantId,
        now,
        request,
        carrier: service.carrier,
        price,
        customsForm,
        checkpoint: LABEL_CREATED_CHECKPOINT,
      });
      await this.outbox.add(manager, LabelEvent.Created, {
        merchantId,
        aggregateId: labelId,
        payload: {
          label_id: labelId,
          service_code: request.service.service_code,
          carrier_code: service.carrier,
        },
      });
      return labelId;
    });
    return id;
  }

  /** The label as the merchant sees it; `db`: a transaction's manager, to read its own writes. */
  async get(
    merchantId: number,
    labelId: number,
    db: Sql = this.dataSource.manager,
  ): Promise<LabelView> {
    const row = await this.repository.record(db, merchantId, labelId);
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
