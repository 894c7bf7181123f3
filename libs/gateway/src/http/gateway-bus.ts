import { Injectable } from '@nestjs/common';
import { CommandReply, CommandRequest, CommandTopic } from '@consign/contracts';
import { CommandBus } from '@consign/platform';
import { unwrapReply } from './api-error';

/** The controllers' way to the services: send, wait, and answer the data or the mapped error. */
@Injectable()
export class GatewayBus {
  constructor(private readonly bus: CommandBus) {}

  call<K extends CommandTopic>(
    topic: K,
    payload: CommandRequest<K>,
    context: { key: string | number; correlationId: string },
  ): Promise<CommandReply<K>> {
    return this.bus
      .request(topic, payload, { key: String(context.key), correlationId: context.correlationId })
      .then(unwrapReply);
  }
}
