import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An event a consumer failed to handle after all its retries, parked for an operator to replay. */
@Entity({ name: 'dead_letter' })
export class DeadLetterEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'BY DEFAULT',
    primaryKeyConstraintName: 'pk_dead_letter',
  })
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  consumer!: string;

  @Column({ type: 'varchar', length: 200 })
  topic!: string;

  @Column({ type: 'jsonb' })
  envelope!: unknown;

  @Column({ type: 'text' })
  error!: string;

  @Column({ type: 'int' })
  attempts!: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
