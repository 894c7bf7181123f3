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
 * Headers of a command that creates or changes something (docs/operations.md, "Each write takes
 * effect once"): its id, the same on every delivery and every retry of the same HTTP request
 * (the client's Idempotency-Key maps to one), which the owning service records with the effect
 * in one transaction; and its deadline (ISO 8601 UTC), after which the service neither starts
 * nor commits it.
 */
export const COMMAND_ID_HEADER = 'x-command-id';
export const COMMAND_DEADLINE_HEADER = 'x-command-deadline';

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
