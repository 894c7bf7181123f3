import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CheckpointStatus } from '@consign/contracts';

/** A normalised checkpoint of a tracked parcel; unique per parcel, time, carrier, code, location. */
@Entity({ name: 'checkpoint' })
export class CheckpointEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_checkpoint',
  })
  id!: number;

  @Column({ type: 'bigint', name: 'tracking_id' })
  trackingId!: number;

  @Column({ type: 'timestamptz', name: 'event_time' })
  eventTime!: Date;

  @Column({ type: 'varchar', length: 32 })
  status!: CheckpointStatus;

  @Column({ type: 'varchar', length: 32, name: 'carrier_code' })
  carrierCode!: string;

  @Column({ type: 'varchar', length: 64, name: 'event_code' })
  eventCode!: string;

  @Column({ type: 'varchar', length: 255 })
  description!: string;

  /** Location or details. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  details!: string | null;

  /** Reported after the label was voided: kept, but not part of its tracking. */
  @Column({ type: 'boolean', name: 'after_void', default: false })
  afterVoid!: boolean;

  @CreateDateColumn({ type: 'timestamptz', name: 'recorded_at' })
  recordedAt!: Date;
}
