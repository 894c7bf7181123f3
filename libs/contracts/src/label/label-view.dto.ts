import { WeightUnit } from '../catalog/weight-unit';
import { IncoTerm } from '../rating/inco-term';
import { LabelAddressDto } from '../common/address.dto';
import { CheckpointStatus } from './checkpoint-status';
import { CustomsForm, LabelDocumentLinkView } from './label-document';
import { LabelItemDto } from './label-item.dto';
import { LabelMetadataDto } from './label-metadata.dto';
import { LabelServiceDto } from './label-service.dto';
import { LengthUnit } from './length-unit';
import { PackageAttributesDto } from './package-attributes.dto';

/**
 * What the label costs: rating-service's price for its parcel when it was created, by the engine
 * of calculate/order and calculate/freight (duty, VAT and DDP fee on the items' declared values),
 * in the label's currency.
 */
export class LabelPriceView {
  /** Number(12,2): everything below. */
  amount!: number;
  /** ISO 4217: the label's `currency` (each line converted with the rate cards' rates). */
  currency!: string;
  inco_term!: IncoTerm | null;
  /** Number(12,2). */
  shipping!: number | null;
  /** Number(12,2). */
  fuel_surcharge!: number | null;
  /** Number(12,2). */
  remote_area_surcharge!: number | null;
  /** Number(12,2). */
  vat!: number | null;
  /** Number(12,2). */
  duty!: number | null;
  /** Number(12,2). */
  ddp_handling!: number | null;
}

/** The label record's `status` once the merchant voided it (a label status, not a checkpoint's). */
export const LABEL_VOIDED = 'voided' as const;

/** What voiding a label recorded: when, and the price given back. */
export class LabelVoidView {
  /** ISO 8601 UTC. */
  voided_time!: string;
  /** Number(12,2): the label's price, refunded in full (nothing was carried). */
  refunded_amount!: number | null;
  /** ISO 4217: the price's currency. */
  refunded_currency!: string | null;
  /**
   * Carrier events that arrived after the void: kept, flagged, and left out of the label's
   * tracking (a voided label is not revived by them). Latest first.
   */
  late_carrier_events!: LateCarrierEventView[];
}

export class LateCarrierEventView {
  /** ISO 8601 UTC. */
  local_time!: string;
  details!: string | null;
  description!: string;
  status!: CheckpointStatus;
}

/**
 * A label record (GET /2026-05/cloud/label/{id}; the spec does not show one). The request's
 * fields as they were accepted, and what happened since: the carrier's allocation and the status
 * of the latest checkpoint.
 */
export class LabelView {
  id!: number;
  /** Status of the latest checkpoint (by event time); `voided` once the merchant voided it. */
  status!: CheckpointStatus | typeof LABEL_VOIDED;
  /** Merchant order reference. */
  reference!: string;
  service!: LabelServiceDto;
  /** Carrier code of the service. */
  carrier!: string | null;
  /** The price of the label, from rating-service, when it was created. */
  price!: LabelPriceView | null;
  /** Recipient. */
  shipping_address!: LabelAddressDto;
  /** Sender. */
  shipper_address!: LabelAddressDto;
  /** ISO 4217. */
  currency!: string;
  weight_unit!: WeightUnit;
  length!: number | null;
  width!: number | null;
  height!: number | null;
  length_unit!: LengthUnit | null;
  /** ISO 8601, as sent. */
  expect_pickup_time!: string | null;
  items!: LabelItemDto[];
  package_attributes!: PackageAttributesDto | null;
  metadata!: LabelMetadataDto | null;
  /** Carrier code; null until a carrier is allocated. */
  tracking_courier!: string | null;
  /** Null until the carrier tracking number is allocated. */
  tracking_number!: string | null;
  /** ISO 8601 UTC; null until delivered. */
  delivered_time!: string | null;
  /** ISO 8601 UTC. */
  created_time!: string;
  /** CN22 or CN23 when the parcel crosses a customs border (rating-service decides), else null. */
  customs_form!: CustomsForm | null;
  /** The documents to print: none until the carrier allocates the tracking number, none once voided. */
  documents!: LabelDocumentLinkView[];
  /** Set once voided (POST /2026-05/cloud/label/{id}/void). */
  void!: LabelVoidView | null;
  /**
   * The label's public tracking page (no API key; no personal data), for the recipient. Added by
   * the gateway to the label it answers for GET; not in the spec.
   */
  tracking_url?: string;
}
