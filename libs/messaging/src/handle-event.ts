import { Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventDefinitionOf, EventPayload, EventTopic } from '@consign/contracts';
import { Inbox } from './inbox';
import { metrics, isLogLevelOn } from '@consign/observability';

const logger = new Logger('EventHandler');

/**
 * The body of every event handler (the counterpart of handleCommand): the payload is validated
 * against the payload class of the event's definition, the use case runs once per event (the
 * inbox) in one transaction with the inbox row and whatever events it adds to the outbox, and
 * those are published after commit (the outbox sees the commit).
 */
export async function handleEvent<K extends EventTopic>(
  messaging: { inbox: Inbox; consumer: string },
  definition: EventDefinitionOf<K>,
  raw: unknown,
  /** What it resolves with (say, the changed record) is not used. */
  apply: (manager: EntityManager, merchantId: number, payload: EventPayload<K>) => Promise<unknown>,
): Promise<void> {
  const topic = definition.topic;
  const outcome = await messaging.inbox.consume(
    messaging.consumer,
    topic,
    raw,
    async (manager, event) => {
      await apply(manager, event.merchant_id, event.payload);
    },
    { contract: definition.payload },
  );
  metrics().countEvent(messaging.consumer, topic, outcome);
  if (isLogLevelOn('debug')) logger.debug(`${messaging.consumer}: ${topic} ${outcome}`);
}
