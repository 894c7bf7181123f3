/** Limits of webhook endpoints (house limits: the spec has no webhooks). */
export const WEBHOOK_LIMITS = {
  url: 2048,
  description: 255,
  /** Endpoints per merchant. */
  endpoints: 20,
} as const;
