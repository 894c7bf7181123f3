import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

import { ADMIN_LIMITS } from '@consign/contracts';

export const MERCHANT_NAME_MAX = ADMIN_LIMITS.merchant_name;

/** A tenant: every record of every service belongs to one merchant. */
@Entity({ name: 'merchant' })
export class MerchantEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_merchant',
  })
  id!: number;

  @Column({ type: 'varchar', length: MERCHANT_NAME_MAX })
  name!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
