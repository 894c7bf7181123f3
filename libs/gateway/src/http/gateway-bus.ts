import { Injectable } from '@nestjs/common';
import { CommandReply, CommandRequest, CommandTopic } from '@consign/contracts';
import { CommandBus, CommandStamp } from '@consign/bus';
import { unwrapReply } from './api-error';

/** The stamps of the requests whose command was answered from the service's record. */
const replayedStamps = new WeakSet<CommandStamp>();

/**
 * Whether the request with this stamp was answered from the service's record of its command (a
 * retry with the same Idempotency-Key: Reply.replayed), rather than by carrying it out.
 */
export function wasReplayed(stamp: CommandStamp): boolean {
  return replayedStamps.has(stamp);
}

/**
 * The routes' way to the services: send, wait, and answer the data or the mapped error. A command
 * that creates or changes something passes its request's stamp (RouteCall.command): its id and
 * deadline travel with it, and the wait ends at the deadline.
 */
@Injectable()
export class GatewayBus {
  constructor(private readonly bus: CommandBus) {}

  call<K extends CommandTopic>(
    topic: K,
    payload: CommandRequest<K>,
    context: { key: string | number; correlationId: string; command?: CommandStamp },
  ): Promise<CommandReply<K>> {
    const command = context.command;
    return this.bus
      .request(topic, payload, {
        key: String(context.key),
        correlationId: context.correlationId,
        command,
      })
      .then((reply) => {
        if (command && reply.replayed === true) replayedStamps.add(command);
        return unwrapReply(reply);
      });
  }
}
