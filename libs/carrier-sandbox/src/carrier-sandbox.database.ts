import { serviceDatabase } from '@consign/platform';
import { CreateSandboxParcel1764000000700 } from './migrations/1764000000700-create-sandbox-parcel';
import { SandboxParcelEntity } from './sandbox-parcel.entity';

export const CARRIER_SANDBOX_SCHEMA = 'carrier_sandbox';

export const carrierSandboxDatabase = serviceDatabase({
  name: 'carrier-sandbox',
  schema: CARRIER_SANDBOX_SCHEMA,
  entities: [SandboxParcelEntity],
  migrations: [CreateSandboxParcel1764000000700],
});
