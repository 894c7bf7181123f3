import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { VARIANT_LIMITS, VariantUnit, WeightUnit } from '@consign/contracts';
import { ProductEntity } from './product.entity';

/** A product variant; its id is the `sku_number` orders and inbound orders refer to. */
@Entity({ name: 'variant' })
@Index('uq_variant_merchant_id_sku', ['merchantId', 'sku'], { unique: true })
@Index('ix_variant_product_id', ['productId'])
export class VariantEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_variant',
  })
  id!: number;

  @Column({ type: 'bigint', name: 'product_id' })
  productId!: number;

  @ManyToOne(() => ProductEntity, (product) => product.variants, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'fk_variant_product' })
  product!: Relation<ProductEntity>;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

  @Column({ type: 'varchar', length: VARIANT_LIMITS.sku })
  sku!: string;

  @Column({ type: 'varchar', length: VARIANT_LIMITS.title })
  title!: string;

  @Column({ type: 'numeric', precision: 12, scale: 2, nullable: true })
  weight!: number | null;

  @Column({ type: 'varchar', length: VARIANT_LIMITS.weight_unit, name: 'weight_unit' })
  weightUnit!: WeightUnit;

  @Column({ type: 'boolean', name: 'requires_shipping', default: true })
  requiresShipping!: boolean;

  @Column({ type: 'numeric', precision: 12, scale: 2, name: 'retail_price' })
  retailPrice!: number;

  @Column({ type: 'numeric', precision: 12, scale: 2, name: 'compare_at_price', nullable: true })
  compareAtPrice!: number | null;

  @Column({ type: 'varchar', length: VARIANT_LIMITS.unit })
  unit!: VariantUnit;

  @Column({ type: 'jsonb', nullable: true })
  options!: Record<string, string> | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
