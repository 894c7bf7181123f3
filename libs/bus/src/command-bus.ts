import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { EmptyError, TimeoutError, lastValueFrom, timeout } from 'rxjs';
import {
  CORRELATION_HEADER,
  CommandReply,
  CommandRequest,
  CommandTopic,
  CommonErrorCode,
  Reply,
  failure,
} from '@consign/contracts';
import { AppConfig } from '@consign/config';
import { currentCorrelationId, BusOutcome, metrics } from '@consign/observability';
import { busHealth } from './bus-health';
import { BUS_CLIENT } from './bus.tokens';
import { InProcessClient } from './in-process.transport';
import { CommandStamp, commandHeaders } from './command-headers';
import { BusMessageTooLarge } from './kafka/bounded-serializer';
import { busClientConnections } from './kafka/bus-connection';

/**
 * Request-reply over the bus with a typed topic map: `request(topic, payload)` cannot pair a
 * payload with the wrong topic. Transport trouble becomes a Reply too: no reply in time is a
 * Timeout (504 at the gateway), no bus or no handler is Unavailable (503).
 */
@Injectable()
export class CommandBus {
  private readonly logger = new Logger('CommandBus');
  private readonly metrics = metrics();

  constructor(
    @Inject(BUS_CLIENT) private readonly client: ClientProxy,
    private readonly config: AppConfig,
  ) {}

  /**
   * Sends a command and waits for its reply. The message carries `x-correlation-id`: the given
   * one, else the current request's or message's, else a new one. A command that creates or
   * changes something carries its stamp (`x-command-id`, `x-command-deadline`): then the wait
   * ends at its deadline, which the service honours too (CommandLedger). Timed in
   * bus_request_duration_seconds by topic and outcome.
   */
  async request<K extends CommandTopic>(
    topic: K,
    payload: CommandRequest<K>,
    options: { key: string; correlationId?: string; timeoutMs?: number; command?: CommandStamp },
  ): Promise<Reply<CommandReply<K>>> {
    const started = performance.now();
    const correlationId = options.correlationId ?? currentCorrelationId() ?? randomUUID();
    const command = options.command;
    const message = {
      key: options.key,
      value: payload,
      headers: command
        ? { [CORRELATION_HEADER]: correlationId, ...commandHeaders(command) }
        : { [CORRELATION_HEADER]: correlationId },
    };
    const timeoutMs = command
      ? Math.max(1, command.deadline - Date.now())
      : (options.timeoutMs ?? this.config.BUS_TIMEOUT_MS);
    const reply = await this.exchange(topic, message, timeoutMs).then(
      (answer) => this.replyOf<CommandReply<K>>(topic, answer),
      (error: unknown) => this.failureOf(topic, error, timeoutMs),
    );
    const outcome: BusOutcome = reply.ok
      ? 'ok'
      : reply.error.code === CommonErrorCode.Timeout
        ? 'timeout'
        : reply.error.code === CommonErrorCode.Unavailable
          ? 'unavailable'
          : 'failure';
    this.metrics.observeBusRequest(topic, outcome, (performance.now() - started) / 1000);
    // Readiness fails while a service's requests keep timing out (see BusHealth).
    busHealth.record(topic, outcome);
    return reply;
  }

  private replyOf<T>(topic: string, answer: unknown): Reply<T> {
    if (isReply(answer)) return answer as Reply<T>;
    this.logger.error(`malformed reply on ${topic}`);
    return failure(
      CommonErrorCode.Unavailable,
      `The ${serviceOf(topic)} service gave an unreadable answer.`,
    );
  }

  /**
   * No reply in time is a Timeout (504); a request too large for the bus, Internal (500: sending
   * it again cannot help); anything else the transport threw, Unavailable (503). Each is logged
   * (with the request's correlation id), so that a 504 or a 503 in an access log has its cause
   * beside it.
   */
  private failureOf(topic: string, error: unknown, timeoutMs: number): Reply<never> {
    if (error instanceof TimeoutError || error instanceof InProcessTimeout) {
      this.logger.warn(`no reply on ${topic} within ${timeoutMs} ms`);
      return failure(
        CommonErrorCode.Timeout,
        `The ${serviceOf(topic)} service did not answer in time.`,
      );
    }
    if (error instanceof BusMessageTooLarge) {
      this.logger.error(error.message);
      return failure(
        CommonErrorCode.Internal,
        `The request is larger than one bus message may carry (${error.limit} bytes).`,
      );
    }
    this.logger.warn(
      `request on ${topic} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return failure(CommonErrorCode.Unavailable, `The ${serviceOf(topic)} service is unavailable.`);
  }

  /**
   * The reply, through the client's Observable; an in-process client's straight from its broker
   * (an Observable chain, its timeout operator and lastValueFrom cost ≈ 10 µs a request there;
   * a Promise.race against a timer promise, four promises more than this one), with the same
   * outcomes: the reply, the handler's failure, no reply (an EmptyError, as from lastValueFrom)
   * or a timeout.
   */
  private exchange(topic: string, message: unknown, timeoutMs: number): Promise<unknown> {
    const client = this.client;
    if (!(client instanceof InProcessClient)) {
      // Not connected yet (the broker has not answered since start-up): Unavailable now, rather
      // than a wait for kafkajs' connection retries.
      if (busClientConnections.get(client)?.isConnected() === false)
        return Promise.reject(new Error('the bus client is not connected to the broker yet'));
      return lastValueFrom(client.send<unknown>(topic, message).pipe(timeout(timeoutMs)));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new InProcessTimeout()), timeoutMs);
      client.request(topic, message).then(
        (reply) => {
          clearTimeout(timer);
          if (reply === undefined) reject(new EmptyError());
          else resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}

class InProcessTimeout extends Error {
  constructor() {
    super('Timeout has occurred');
    this.name = 'InProcessTimeout';
  }
}

function isReply(value: unknown): value is Reply<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { ok?: unknown }).ok === 'boolean'
  );
}

function serviceOf(topic: string): string {
  return topic.split('.')[0];
}
