import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt, signed by the `standardwebhooks` library with
 * the endpoint's secret and, during a rotation's grace period, with the previous one too
 * (space-separated signatures: a receiver holding either secret verifies it).
 */
export function signedHeaders(
  webhookId: string,
  timestamp: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(webhookId, timestamp, body));
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
