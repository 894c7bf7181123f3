import { serviceDatabase } from '@consign/messaging';
import { CreateMerchant1764000000100 } from '../migrations/1764000000100-create-merchant';
import { CreateCarrierCredential1764000000110 } from '../migrations/1764000000110-create-carrier-credential';
import { AdminKeys1764000000120 } from '../migrations/1764000000120-admin-keys';
import { CreateIdempotencyKey1764000001100 } from '../migrations/1764000001100-create-idempotency-key';
import { CreateTrackingSecret1764000001510 } from '../migrations/1764000001510-create-tracking-secret';
import { DropIdempotencyKey1764000001600 } from '../migrations/1764000001600-drop-idempotency-key';

export const GATEWAY_SCHEMA = 'gateway';

/**
 * The gateway owns no domain data, only merchants, their API keys, carriers' credentials and the
 * tracking pages' signing key (read and written with SQL, see MerchantRepository,
 * ApiKeyRepository and CarrierCredentialRepository).
 */
export const gatewayDatabase = serviceDatabase({
  name: 'gateway',
  schema: GATEWAY_SCHEMA,
  entities: [],
  migrations: [
    CreateMerchant1764000000100,
    CreateCarrierCredential1764000000110,
    AdminKeys1764000000120,
    CreateIdempotencyKey1764000001100,
    CreateTrackingSecret1764000001510,
    DropIdempotencyKey1764000001600,
  ],
  withMessaging: false,
});
