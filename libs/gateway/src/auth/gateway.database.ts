import { serviceDatabase } from '@consign/platform';
import { ApiKeyEntity } from './api-key.entity';
import { MerchantEntity } from './merchant.entity';
import { CreateMerchant1764000000100 } from '../migrations/1764000000100-create-merchant';

export const GATEWAY_SCHEMA = 'gateway';

/** The gateway owns no domain data, only merchants and their API keys. */
export const gatewayDatabase = serviceDatabase({
  name: 'gateway',
  schema: GATEWAY_SCHEMA,
  entities: [MerchantEntity, ApiKeyEntity],
  migrations: [CreateMerchant1764000000100],
  withMessaging: false,
});
