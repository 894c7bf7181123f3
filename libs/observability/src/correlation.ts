import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER } from '@consign/contracts';

/** The Kafka key, headers and bytes of the message being handled (absent on the in-process bus). */
export interface ConsumedMessageMeta {
  key: string | null;
  headers: Record<string, string>;
  /** The value as it was consumed, before any parsing: what a dead letter keeps. */
  value?: Buffer | null;
}

/**
 * A command being handled that creates or changes something: its id (the same on a redelivery
 * and on a client's retry with the same Idempotency-Key), its topic and its deadline (epoch ms;
 * absent when the sender set none). See CommandLedger.
 */
export interface IncomingCommand {
  readonly id: string;
  readonly topic: string;
  readonly deadline?: number;
}

/**
 * What a unit of work (an HTTP request, a consumed message) carries: the correlation id for its
 * log lines, for a consumed Kafka message its key and headers (a dead letter copies them), and
 * for a command its id and deadline.
 */
export interface CorrelationScope {
  readonly correlationId: string;
  readonly consumed?: ConsumedMessageMeta;
  readonly command?: IncomingCommand;
}

const storage = new AsyncLocalStorage<CorrelationScope>();

/** The correlation id of the current request or message, if there is one. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** Runs `work` with `correlationId` on every log line, bus request and outbox event inside it. */
export function runWithCorrelationId<T>(correlationId: string, work: () => T): T {
  return storage.run({ correlationId }, work);
}

/** Runs the handling of a consumed Kafka message in its scope (one scope: one async context). */
export function runInMessageScope<T>(scope: CorrelationScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The command the current handler runs for, when its message carried a command id. */
export function currentCommand(): IncomingCommand | undefined {
  return storage.getStore()?.command;
}

/** The key and headers of the Kafka message the current handler runs for, if any. */
export function currentConsumedMessage(): ConsumedMessageMeta | undefined {
  return storage.getStore()?.consumed;
}

const MAX_CORRELATION_ID_LENGTH = 128;

/**
 * A correlation id we accept from outside: 1 to 128 of [A-Za-z0-9._:-]. Anything else (log
 * injection, huge values) is replaced by a fresh id. A character loop, not a regex: this runs on
 * every request.
 */
export function isSaneCorrelationId(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const length = value.length;
  if (length === 0 || length > MAX_CORRELATION_ID_LENGTH) return false;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 58) || // 0-9 and ':'
      (c >= 65 && c <= 90) || // A-Z
      (c >= 97 && c <= 122) || // a-z
      c === 45 || // -
      c === 46 || // .
      c === 95; // _
    if (!ok) return false;
  }
  return true;
}

/** The given id when it is sane, else a new one. */
export function correlationIdOrNew(given: unknown): string {
  return isSaneCorrelationId(given) ? given : randomUUID();
}

/**
 * The correlation id a consumed message carries in its `x-correlation-id` header (Kafka headers
 * decoded to strings by Nest, raw Buffers from kafkajs, or the in-process transport's strings).
 */
export function correlationIdOfHeaders(headers: unknown): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  let value: unknown = (headers as Record<string, unknown>)[CORRELATION_HEADER];
  if (Buffer.isBuffer(value)) value = value.toString('utf8');
  return isSaneCorrelationId(value) ? value : undefined;
}

/** The headers to put on an outgoing bus message: the current correlation id, if any. */
export function correlationHeaders(): Record<string, string> {
  const id = currentCorrelationId();
  return id ? { [CORRELATION_HEADER]: id } : {};
}
