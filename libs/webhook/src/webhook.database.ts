import { serviceDatabase } from '@consign/messaging';
import { CreateWebhook1764000001500 } from './migrations/1764000001500-create-webhook';
import { WebhookDeliveryRetention1764000001710 } from './migrations/1764000001710-webhook-delivery-retention';

export const WEBHOOK_SCHEMA = 'webhooks';

/**
 * webhook-dispatcher's schema: endpoints, deliveries (a durable queue) and their attempts (read
 * and written with SQL, see WebhookEndpointRepository and WebhookDeliveryRepository).
 */
export const webhookDatabase = serviceDatabase({
  name: 'webhooks',
  schema: WEBHOOK_SCHEMA,
  entities: [],
  migrations: [CreateWebhook1764000001500, WebhookDeliveryRetention1764000001710],
});
