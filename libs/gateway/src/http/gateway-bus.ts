import { Injectable } from '@nestjs/common';
import { CommandReply, CommandRequest, CommandTopic } from '@consign/contracts';
import { CommandBus, CommandStamp } from '@consign/platform';
import { unwrapReply } from './api-error';

/**
 * The controllers' way to the services: send, wait, and answer the data or the mapped error. A
 * command that creates or changes something passes its request's stamp (@Command()): its id and
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
    return this.bus
      .request(topic, payload, {
        key: String(context.key),
        correlationId: context.correlationId,
        command: context.command,
      })
      .then(unwrapReply);
  }
}
