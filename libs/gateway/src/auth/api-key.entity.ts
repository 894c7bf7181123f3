import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What a key may do: merchants use the merchant API; operators also run warehouse operations. */
export enum ApiKeyRole {
  Merchant = 'merchant',
  Operator = 'operator',
}

/** An API key, stored as its SHA-256 hash; the key itself is shown once, when issued. */
@Entity({ name: 'api_key' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_api_key',
  })
  id!: number;

  @Column({ type: 'bigint', name: 'merchant_id' })
  merchantId!: number;

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
