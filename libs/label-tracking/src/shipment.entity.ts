import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A shipment of an order: the parcel (tracking) it left the warehouse as. */
@Entity({ name: 'shipment' })
export class ShipmentEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_shipment',
  })
  id!: number;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

  @Column({ type: 'bigint', name: 'order_id' })
  orderId!: number;

  @Column({ type: 'bigint', name: 'tracking_id' })
  trackingId!: number;

  @Column({ type: 'int' })
  packages!: number;

  @Column({ type: 'timestamptz', name: 'shipped_at' })
  shippedAt!: Date;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
