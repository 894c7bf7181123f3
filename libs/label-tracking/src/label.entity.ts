import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import {
  CustomsForm,
  LabelAddressDto,
  LabelItemDto,
  LabelMetadataDto,
  LabelPriceView,
  LengthUnit,
  PackageAttributesDto,
  WeightUnit,
} from '@consign/contracts';

/** What voiding a label gave back. */
export interface LabelRefund {
  amount: number | null;
  currency: string | null;
}

/** A merchant's label: the request as accepted. Its id is its tracking's id. */
@Entity({ name: 'label' })
export class LabelEntity {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_label' })
  id!: number;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

  @Column({ type: 'varchar', length: 64 })
  reference!: string;

  @Column({ type: 'varchar', length: 32, name: 'service_code' })
  serviceCode!: string;

  @Column({ type: 'varchar', length: 16, name: 'inco_term', nullable: true })
  incoTerm!: string | null;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 2, name: 'weight_unit' })
  weightUnit!: WeightUnit;

  @Column({ type: 'numeric', precision: 12, scale: 3, nullable: true })
  length!: number | null;

  @Column({ type: 'numeric', precision: 12, scale: 3, nullable: true })
  width!: number | null;

  @Column({ type: 'numeric', precision: 12, scale: 3, nullable: true })
  height!: number | null;

  @Column({ type: 'varchar', length: 2, name: 'length_unit', nullable: true })
  lengthUnit!: LengthUnit | null;

  @Column({ type: 'varchar', length: 40, name: 'expect_pickup_time', nullable: true })
  expectPickupTime!: string | null;

  @Column({ type: 'json', name: 'shipping_address' })
  shippingAddress!: LabelAddressDto;

  @Column({ type: 'json', name: 'shipper_address' })
  shipperAddress!: LabelAddressDto;

  @Column({ type: 'json' })
  items!: LabelItemDto[];

  @Column({ type: 'json', name: 'package_attributes', nullable: true })
  packageAttributes!: PackageAttributesDto | null;

  @Column({ type: 'json', nullable: true })
  metadata!: LabelMetadataDto | null;

  /** rating-service's freight price when the label was created. */
  @Column({ type: 'json', nullable: true })
  price!: LabelPriceView | null;

  /** CN22 or CN23 when the parcel crosses a customs border (rating-service's answer). */
  @Column({ type: 'varchar', length: 4, name: 'customs_form', nullable: true })
  customsForm!: CustomsForm | null;

  /** The price given back when the label was voided. */
  @Column({ type: 'json', nullable: true })
  refund!: LabelRefund | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
