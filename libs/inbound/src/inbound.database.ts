import { serviceDatabase } from '@consign/messaging';
import { CreateInbound1764000000400 } from './migrations/1764000000400-create-inbound';

export const INBOUND_SCHEMA = 'inbound';

/** inbound-service's schema: inbound orders and their items (SQL in InboundRepository). */
export const inboundDatabase = serviceDatabase({
  name: 'inbound',
  schema: INBOUND_SCHEMA,
  entities: [],
  migrations: [CreateInbound1764000000400],
});
