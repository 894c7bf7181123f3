import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ApiKeyRole } from '@consign/contracts';

/** One definition, in the contracts (the admin API names roles too). */
export { ApiKeyRole };

/** An API key, stored as its SHA-256 hash; the key itself is shown once, when issued. */
@Entity({ name: 'api_key' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_api_key',
  })
  id!: number;

  /** The merchant account the key acts for; null for an admin key, which acts for none. */
  @Column({ type: 'bigint', name: 'merchant_id', nullable: true })
  merchantId!: number | null;

  @Column({ type: 'char', length: 64, name: 'key_hash' })
  keyHash!: string;

  /** The first characters of the key, to recognise it in listings without revealing it. */
  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: ApiKeyRole;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
