/**
 * What a service answers over the bus. Errors travel as data (a code and a message), never as
 * thrown exceptions, so the Kafka and in-process paths carry exactly the same JSON.
 */
export interface ReplyError {
  code: string;
  message: string;
}

/**
 * `replayed`: the answer is the one recorded for an earlier delivery of the same command (the same
 * command id: a retry with the same Idempotency-Key, or a redelivery), not a new execution.
 */
export type Reply<T> =
  { ok: true; data: T; replayed?: true } | { ok: false; error: ReplyError; replayed?: true };

export function success<T>(data: T): Reply<T> {
  return { ok: true, data };
}

export function failure<T = never>(code: string, message: string): Reply<T> {
  return { ok: false, error: { code, message } };
}

/** Error codes any context may answer with. Each context adds its own string enum. */
export enum CommonErrorCode {
  Validation = 'common.validation',
  NotFound = 'common.not_found',
  Conflict = 'common.conflict',
  Unauthorized = 'common.unauthorized',
  Forbidden = 'common.forbidden',
  Unavailable = 'common.unavailable',
  Timeout = 'common.timeout',
  Internal = 'common.internal',
  PayloadTooLarge = 'common.payload_too_large',
  RateLimited = 'common.rate_limited',
  /** A command id (Idempotency-Key) already used for a different request. */
  CommandReused = 'common.command_reused',
  /** The command arrived or would have committed after its deadline: it was not carried out. */
  CommandExpired = 'common.command_expired',
}
