import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { PRODUCT_LIMITS } from '@consign/contracts';
import { VariantEntity } from './variant.entity';

export interface StoredImage {
  url: string;
  title: string | null;
}

@Entity({ name: 'product' })
@Index('ix_product_merchant_id_id', ['merchantId', 'id'])
export class ProductEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_product',
  })
  id!: number;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

  @Column({ type: 'varchar', length: PRODUCT_LIMITS.title })
  title!: string;

  @Column({ type: 'text', name: 'body_html', nullable: true })
  bodyHtml!: string | null;

  @Column({ type: 'varchar', length: PRODUCT_LIMITS.vendor, nullable: true })
  vendor!: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  tags!: string[];

  @Column({ type: 'char', length: PRODUCT_LIMITS.currency })
  currency!: string;

  @Column({ type: 'varchar', length: PRODUCT_LIMITS.source, nullable: true })
  source!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  options!: Record<string, string[]> | null;

  @Column({ type: 'varchar', length: PRODUCT_LIMITS.category, nullable: true })
  category!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  images!: StoredImage[] | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  @OneToMany(() => VariantEntity, (variant) => variant.product, { cascade: ['insert'] })
  variants!: Relation<VariantEntity>[];
}
