import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CheckpointStatus } from '@consign/contracts';

/**
 * One tracked parcel: a label (whose id is this id) or an order's shipment. Holds what the carrier
 * allocated and a summary of its checkpoints, kept up to date as they arrive: the status of the
 * latest by event time, when the carrier last reported (the expiry clock), outbound and delivery.
 */
@Entity({ name: 'tracking' })
export class TrackingEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_tracking',
  })
  id!: number;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

  /** The carrier expected to carry it (its service's carrier), when known. */
  @Column({ type: 'varchar', length: 32, name: 'carrier_code', nullable: true })
  carrierCode!: string | null;

  @Column({ type: 'varchar', length: 32, name: 'tracking_courier', nullable: true })
  trackingCourier!: string | null;

  @Column({ type: 'varchar', length: 255, name: 'tracking_number', nullable: true })
  trackingNumber!: string | null;

  /** Event time of the allocation in force: a later allocation replaces it, an older one not. */
  @Column({ type: 'timestamptz', name: 'allocated_at', nullable: true })
  allocatedAt!: Date | null;

  @Column({ type: 'varchar', length: 32 })
  status!: CheckpointStatus;

  @Column({ type: 'timestamptz', name: 'status_at' })
  statusAt!: Date;

  @Column({ type: 'timestamptz', name: 'last_event_at' })
  lastEventAt!: Date;

  @Column({ type: 'timestamptz', name: 'outbound_time', nullable: true })
  outboundTime!: Date | null;

  @Column({ type: 'timestamptz', name: 'delivered_time', nullable: true })
  deliveredTime!: Date | null;

  /** When the merchant voided the label: later carrier events are kept but flagged. */
  @Column({ type: 'timestamptz', name: 'voided_at', nullable: true })
  voidedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
