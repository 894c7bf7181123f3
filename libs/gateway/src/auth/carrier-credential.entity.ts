import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A carrier's credential for the webhook ingestion endpoint, stored as its SHA-256 hash. Carriers
 * are not merchants: a credential names the carrier it reports for, and nothing else.
 */
@Entity({ name: 'carrier_credential' })
export class CarrierCredentialEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_carrier_credential',
  })
  id!: number;

  @Column({ type: 'varchar', length: 32, name: 'carrier_code' })
  carrierCode!: string;

  @Column({ type: 'char', length: 64, name: 'key_hash' })
  keyHash!: string;

  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
