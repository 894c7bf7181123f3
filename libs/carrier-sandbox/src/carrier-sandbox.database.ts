import { serviceDatabase } from '@consign/messaging';
import { CreateSandboxParcel1764000000700 } from './migrations/1764000000700-create-sandbox-parcel';

export const CARRIER_SANDBOX_SCHEMA = 'carrier_sandbox';

/** carrier-sandbox's schema: the parcels it plays (read and written with SQL, see SandboxParcelRepository). */
export const carrierSandboxDatabase = serviceDatabase({
  name: 'carrier-sandbox',
  schema: CARRIER_SANDBOX_SCHEMA,
  entities: [],
  migrations: [CreateSandboxParcel1764000000700],
});
