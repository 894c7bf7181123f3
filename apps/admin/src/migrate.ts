import { carrierSandboxDatabase } from '@consign/carrier-sandbox';
import { catalogDatabase } from '@consign/catalog';
import { gatewayDatabase } from '@consign/gateway';
import { inboundDatabase } from '@consign/inbound';
import { labelTrackingDatabase } from '@consign/label-tracking';
import { orderDatabase } from '@consign/order';
import { DatabaseHost, DatabaseTarget, ServiceDatabaseOptions } from '@consign/database';
import { webhookDatabase } from '@consign/webhook';

/**
 * Every service that owns a schema (rating-service is stateless). The deployment's one-shot
 * migration step (compose `migrate`, the Kubernetes Job) runs them all; a service still runs its
 * own at start, under the same advisory lock, where they are then already applied.
 */
export const MIGRATED_DATABASES: readonly ServiceDatabaseOptions[] = [
  gatewayDatabase.options,
  catalogDatabase.options,
  orderDatabase.options,
  inboundDatabase.options,
  labelTrackingDatabase.options,
  carrierSandboxDatabase.options,
  webhookDatabase.options,
];

export interface MigratedSchema {
  schema: string;
  /** Migrations recorded in the schema's migration table after the run. */
  applied: number;
}

/** Creates each service's schema and runs its pending migrations, one service after the other. */
export async function migrateAll(
  target: DatabaseTarget,
  databases: readonly ServiceDatabaseOptions[] = MIGRATED_DATABASES,
): Promise<MigratedSchema[]> {
  // Two connections: the migration lock holds one while the migrations run on the other.
  const host = new DatabaseHost(target.kind === 'postgres' ? { ...target, poolSize: 2 } : target);
  try {
    const result: MigratedSchema[] = [];
    for (const options of databases) {
      const dataSource = await host.openServiceDataSource(options);
      const [{ count }] = (await dataSource.query(
        `SELECT count(*)::int AS count FROM "${options.schema}".migration`,
      )) as { count: number }[];
      result.push({ schema: options.schema, applied: count });
    }
    return result;
  } finally {
    await host.close();
  }
}
