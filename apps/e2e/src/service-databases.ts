import { carrierSandboxDatabase } from '@consign/carrier-sandbox';
import { catalogDatabase } from '@consign/catalog';
import { gatewayDatabase } from '@consign/gateway';
import { labelTrackingDatabase } from '@consign/label-tracking';
import { inboundDatabase } from '@consign/inbound';
import { orderDatabase } from '@consign/order';
import type { ServiceDatabaseOptions } from '@consign/database';
import { webhookDatabase } from '@consign/webhook';

/** Every service's database, to migrate a template the test databases are cloned from. */
export const ALL_SERVICE_DATABASES: ServiceDatabaseOptions[] = [
  gatewayDatabase.options,
  catalogDatabase.options,
  labelTrackingDatabase.options,
  carrierSandboxDatabase.options,
  orderDatabase.options,
  inboundDatabase.options,
  webhookDatabase.options,
];
