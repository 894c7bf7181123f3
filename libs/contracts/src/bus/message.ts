/**
 * How a command travels: the Kafka message key is the aggregate (or merchant) id, so one
 * aggregate's messages stay ordered on one partition; headers carry the correlation id.
 */
export interface BusMessage<T> {
  key: string;
  value: T;
  headers?: Record<string, string>;
}

/** Every domain event carries these, whatever its payload (ARCHITECTURE.md, messaging). */
export interface EventEnvelope<T> {
  event_id: string;
  merchant_id: number;
  aggregate_id: string;
  occurred_at: string;
  payload: T;
}

export const CORRELATION_HEADER = 'x-correlation-id';

/**
 * Headers a dead-lettered message carries on `<topic>.dlt`, besides its original key and headers:
 * which consumer gave up, why, after how many attempts, and when (ISO 8601 UTC).
 */
export const DLT_HEADERS = {
  consumer: 'x-dlt-consumer',
  error: 'x-dlt-error',
  attempts: 'x-dlt-attempts',
  failedAt: 'x-dlt-failed-at',
} as const;
