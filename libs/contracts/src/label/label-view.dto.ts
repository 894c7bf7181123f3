import { WeightUnit } from '../catalog/weight-unit';
import { LabelAddressDto } from '../common/address.dto';
import { CheckpointStatus } from './checkpoint-status';
import { LabelItemDto } from './label-item.dto';
import { LabelMetadataDto } from './label-metadata.dto';
import { LabelServiceDto } from './label-service.dto';
import { LengthUnit } from './length-unit';
import { PackageAttributesDto } from './package-attributes.dto';

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
}
