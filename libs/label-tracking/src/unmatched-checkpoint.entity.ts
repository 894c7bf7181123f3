import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CarrierCheckpointEvent } from '@consign/contracts';

export enum UnmatchedReason {
  /** No label has the event's `label_id`: parked for an operator. */
  UnknownLabel = 'unknown_label',
  /** The tracking number is not allocated yet: attached to the parcel when it is. */
  UnknownTrackingNumber = 'unknown_tracking_number',
}

/** A carrier event for no known parcel: kept, never dropped. */
@Entity({ name: 'unmatched_checkpoint' })
export class UnmatchedCheckpointEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_unmatched_checkpoint',
  })
  id!: number;

  @Column({ type: 'varchar', length: 32, name: 'carrier_code' })
  carrierCode!: string;

  @Column({ type: 'bigint', name: 'label_id', nullable: true })
  labelId!: number | null;

  @Column({ type: 'varchar', length: 255, name: 'tracking_number', nullable: true })
  trackingNumber!: string | null;

  @Column({ type: 'jsonb' })
  event!: CarrierCheckpointEvent;

  @Column({ type: 'varchar', length: 32 })
  reason!: UnmatchedReason;

  @CreateDateColumn({ type: 'timestamptz', name: 'received_at' })
  receivedAt!: Date;
}
