import {
  ClientProxy,
  CustomTransportStrategy,
  ReadPacket,
  Server,
  WritePacket,
} from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { lastValueFrom, isObservable } from 'rxjs';
import {
  correlationIdOfHeaders,
  currentCommand,
  currentConsumedMessage,
  currentCorrelationId,
  runInMessageScope,
  runWithCorrelationId,
  continueTraceOf,
} from '@consign/observability';
import { commandOfHeaders } from './command-headers';
import { EventHandler, InProcessBroker, MessageHeaders, RequestHandler } from './in-process-broker';

/**
 * Kafka messages are `{ key, value, headers }`; a Nest Kafka handler receives the value. The
 * in-process transport unwraps the same shape so handlers cannot tell the transports apart, and
 * carries the headers (the correlation id) as Kafka does.
 */
function messageValue(data: unknown): unknown {
  if (data !== null && typeof data === 'object' && 'value' in data)
    return (data as { value: unknown }).value;
  return data;
}

function messageHeaders(data: unknown): MessageHeaders | undefined {
  if (data !== null && typeof data === 'object' && 'headers' in data) {
    const headers = (data as { headers: unknown }).headers;
    if (headers !== null && typeof headers === 'object') return headers as MessageHeaders;
  }
  return undefined;
}

/**
 * Handles a consumed message inside the correlation id it carries (a new one without), and a
 * request that carries a command id inside its command (see CommandLedger). A request the process
 * makes to itself usually carries the id of the scope it is sent from (an HTTP request's): that
 * scope is kept rather than entered again, unless it holds a command (a request made while
 * handling one is not that command).
 */
function withCorrelationOf<T>(headers: MessageHeaders, work: () => T, pattern?: string): T {
  const correlationId = correlationIdOfHeaders(headers) ?? randomUUID();
  const command = pattern === undefined ? undefined : commandOfHeaders(headers, pattern);
  if (command) return runInMessageScope({ correlationId, command }, work);
  if (
    currentCorrelationId() === correlationId &&
    currentConsumedMessage() === undefined &&
    currentCommand() === undefined
  )
    return work();
  return runWithCorrelationId(correlationId, work);
}

/** The server half of the in-process transport: registers the app's handlers on the broker. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  private registered: { request: RequestHandler[]; event: EventHandler[] } = {
    request: [],
    event: [],
  };

  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  listen(callback: () => void): void {
    for (const [pattern, handler] of this.getHandlers()) {
      if (handler.isEventHandler) {
        // An event comes from an outbox relay: its handling continues the trace that wrote it.
        const eventHandler: EventHandler = (data, headers) =>
          withCorrelationOf(headers, () =>
            continueTraceOf(pattern, headers, async () => {
              const result = await handler(data);
              if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
            }),
          );
        this.broker.registerEventHandler(pattern, eventHandler);
        this.registered.event.push(eventHandler);
      } else {
        // What lastValueFrom(transformToObservable(result)) gives (the awaited result is no
        // Promise), without wrapping a plain reply in an Observable nor another async function.
        const requestHandler: RequestHandler = (data, headers) =>
          withCorrelationOf(
            headers,
            () =>
              Promise.resolve(handler(data)).then((result: unknown) =>
                isObservable(result) ? lastValueFrom(result, { defaultValue: undefined }) : result,
              ),
            pattern,
          );
        this.broker.registerRequestHandler(pattern, requestHandler);
        this.registered.request.push(requestHandler);
      }
    }
    callback();
  }

  close(): void {
    this.broker.unregisterAll(this.registered);
    this.registered = { request: [], event: [] };
  }

  on(): void {
    // The in-process transport has no connection events.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}

/** The client half: sends requests and emits events through the broker. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async connect(): Promise<void> {
    // Nothing to connect: the broker lives in this process.
  }

  close(): void {
    // Nothing to close.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  /**
   * What `send(pattern, message)` answers, as a promise: the handler's reply (the broker's JSON
   * copy) or its failure. CommandBus takes this way in a standalone process: the same exchange
   * without an Observable chain per request.
   */
  request(pattern: string, message: unknown): Promise<unknown> {
    return this.broker.request(
      this.normalizePattern(pattern),
      messageValue(message),
      messageHeaders(message),
    );
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    let disposed = false;
    this.broker
      .request(
        this.normalizePattern(packet.pattern),
        messageValue(packet.data),
        messageHeaders(packet.data),
      )
      .then(
        (response) => !disposed && callback({ response, isDisposed: true }),
        (err: unknown) => !disposed && callback({ err, isDisposed: true }),
      );
    return () => {
      disposed = true;
    };
  }

  protected async dispatchEvent<T>(packet: ReadPacket): Promise<T> {
    await this.broker.publish(
      this.normalizePattern(packet.pattern),
      messageValue(packet.data),
      messageHeaders(packet.data),
    );
    return undefined as T;
  }
}
