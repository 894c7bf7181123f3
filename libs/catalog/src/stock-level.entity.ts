import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * Stock of one variant at one warehouse. Receipts raise on_hand, approved orders reserve,
 * shipments deduct both; available = on_hand - reserved. Constraints keep it from going negative.
 */
@Entity({ name: 'stock_level' })
export class StockLevelEntity {
  @PrimaryColumn({ type: 'bigint', name: 'variant_id', primaryKeyConstraintName: 'pk_stock_level' })
  variantId!: number;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    name: 'warehouse_code',
    primaryKeyConstraintName: 'pk_stock_level',
  })
  warehouseCode!: string;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

  @Column({ type: 'integer', name: 'on_hand', default: 0 })
  onHand!: number;

  @Column({ type: 'integer', default: 0 })
  reserved!: number;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
