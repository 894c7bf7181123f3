import { Logger } from '@nestjs/common';
import { jsonCopy } from './json-copy';

/** A message's headers (e.g. `x-correlation-id`), carried as Kafka carries them. */
export type MessageHeaders = Readonly<Record<string, string>>;
export type RequestHandler = (data: unknown, headers: MessageHeaders) => Promise<unknown>;
export type EventHandler = (data: unknown, headers: MessageHeaders) => Promise<void>;

const NO_HEADERS: MessageHeaders = Object.freeze({});

/** Thrown to a requester when no service has a handler for the pattern (the 503 case). */
export class NoHandlerError extends Error {
  constructor(readonly pattern: string) {
    super(`no handler for ${pattern}`);
    this.name = 'NoHandlerError';
  }
}

/**
 * The in-process bus of a standalone process: the same patterns as Kafka, and every payload goes
 * through a JSON round trip both ways so that what a handler sees, and what a caller gets back,
 * is byte-for-byte what the Kafka path would carry (no shared object references, no Dates,
 * no class instances).
 */
export class InProcessBroker {
  private readonly logger = new Logger('InProcessBroker');
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly eventHandlers = new Map<string, EventHandler[]>();

  registerRequestHandler(pattern: string, handler: RequestHandler): void {
    if (this.requestHandlers.has(pattern)) throw new Error(`two request handlers for ${pattern}`);
    this.requestHandlers.set(pattern, handler);
  }

  registerEventHandler(pattern: string, handler: EventHandler): void {
    this.eventHandlers.set(pattern, [...(this.eventHandlers.get(pattern) ?? []), handler]);
  }

  unregisterAll(handlers: { request: RequestHandler[]; event: EventHandler[] }): void {
    for (const [pattern, handler] of this.requestHandlers) {
      if (handlers.request.includes(handler)) this.requestHandlers.delete(pattern);
    }
    for (const [pattern, list] of this.eventHandlers) {
      this.eventHandlers.set(
        pattern,
        list.filter((h) => !handlers.event.includes(h)),
      );
    }
  }

  hasRequestHandler(pattern: string): boolean {
    return this.requestHandlers.has(pattern);
  }

  /** The handler's reply, copied as the wire would; rejects as the handler does. */
  request(pattern: string, data: unknown, headers: MessageHeaders = NO_HEADERS): Promise<unknown> {
    const handler = this.requestHandlers.get(pattern);
    if (!handler) return Promise.reject(new NoHandlerError(pattern));
    try {
      return handler(jsonRoundTrip(data), headers).then(jsonRoundTrip);
    } catch (error: unknown) {
      // A payload JSON cannot carry (a cycle, a BigInt) fails here, as it would on the wire.
      return Promise.reject(error);
    }
  }

  /**
   * Delivers an event to every subscriber and resolves once all of them have handled it, so an
   * outbox relay marks an event published only after delivery. A subscriber's failure rejects.
   */
  async publish(
    pattern: string,
    data: unknown,
    headers: MessageHeaders = NO_HEADERS,
  ): Promise<void> {
    const handlers = this.eventHandlers.get(pattern) ?? [];
    if (handlers.length === 0) {
      this.logger.debug(`no subscriber for ${pattern}`);
      return;
    }
    const results = await Promise.allSettled(
      handlers.map((handler) => handler(jsonRoundTrip(data), headers)),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** What the value becomes on the wire and back: JSON.parse(JSON.stringify(value)), see jsonCopy. */
export function jsonRoundTrip<T>(value: T): T {
  return value === undefined ? value : jsonCopy(value);
}
