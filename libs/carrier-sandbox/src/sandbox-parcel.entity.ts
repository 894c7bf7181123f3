import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { SandboxScenario } from './sandbox-script';

/** A parcel the sandbox is moving through its scenario (its id is the label or shipment id). */
@Entity({ name: 'sandbox_parcel' })
export class SandboxParcelEntity {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_sandbox_parcel' })
  id!: number;

  @Column({ type: 'varchar', length: 32, name: 'carrier_code' })
  carrierCode!: string;

  /** Known from the start for an order's shipment; the sandbox allocates one for a label. */
  @Column({ type: 'varchar', length: 255, name: 'tracking_number', nullable: true })
  trackingNumber!: string | null;

  /** Reported by tracking number (an order's shipment), not by label id (a label). */
  @Column({ type: 'boolean', name: 'by_tracking_number', default: false })
  byTrackingNumber!: boolean;

  @Column({ type: 'varchar', length: 32 })
  scenario!: SandboxScenario;

  /** Index of the next step of the scenario. */
  @Column({ type: 'int', default: 0 })
  step!: number;

  @Column({ type: 'timestamptz', name: 'next_at' })
  nextAt!: Date;

  /** A runner publishing the step holds it until then; past it, another may take over. */
  @Column({ type: 'timestamptz', name: 'locked_until', nullable: true })
  lockedUntil!: Date | null;

  @Column({ type: 'boolean', default: false })
  done!: boolean;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
