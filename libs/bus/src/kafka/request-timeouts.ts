import { Logger } from '@nestjs/common';
import type { Consumer, Producer, RequestTimeoutEvent } from 'kafkajs';

const logger = new Logger('KafkaRequests');
const watched = new WeakSet<Consumer | Producer>();

/**
 * Logs a warning for each request of this consumer or producer that the broker did not answer
 * within kafkajs' request timeout (30 s, the Java client's default too). kafkajs itself says
 * nothing of it: the request fails with a retriable error and is sent again, and meanwhile the
 * consumer reads nothing from that broker, or the producer's message waits. A command's reply
 * stuck there is a 504 at the gateway whose cause was in no log; this is that log line.
 */
export function warnOnRequestTimeouts(name: string, client: Consumer | Producer): void {
  if (watched.has(client)) return;
  watched.add(client);
  const warn = ({ payload }: RequestTimeoutEvent) =>
    logger.warn(
      `${name}: broker ${payload.broker} did not answer ${payload.apiName} ` +
        `(correlation ${payload.correlationId}) within ${Date.now() - payload.sentAt} ms`,
    );
  // The same call twice: each type's `on` overloads take only its own event names.
  if ('subscribe' in client) client.on(client.events.REQUEST_TIMEOUT, warn);
  else client.on(client.events.REQUEST_TIMEOUT, warn);
}
