import { WeightUnit } from '../catalog/weight-unit';
import { IncoTerm } from '../rating/inco-term';
import { LabelAddressDto } from '../common/address.dto';
import { CheckpointStatus } from './checkpoint-status';
import { LabelItemDto } from './label-item.dto';
import { LabelMetadataDto } from './label-metadata.dto';
import { LabelServiceDto } from './label-service.dto';
import { LengthUnit } from './length-unit';
import { PackageAttributesDto } from './package-attributes.dto';

/** What the label costs: rating-service's freight price for it when it was created. */
export class LabelPriceView {
  /** Number(12,2): everything below. */
  amount!: number;
  /** ISO 4217: the carrier service's currency. */
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

/**
 * A label record (GET /2026-05/cloud/label/{id}; the spec does not show one). The request's
 * fields as they were accepted, and what happened since: the carrier's allocation and the status
 * of the latest checkpoint.
 */
export class LabelView {
  id!: number;
  /** Status of the latest checkpoint (by event time). */
  status!: CheckpointStatus;
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
  /**
   * The label's public tracking page (no API key; no personal data), for the recipient. Added by
   * the gateway to the label it answers for GET; not in the spec.
   */
  tracking_url?: string;
}
