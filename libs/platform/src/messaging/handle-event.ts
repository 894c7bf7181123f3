import { Logger } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { EntityManager } from 'typeorm';
import { EventPayload, EventTopic } from '@consign/contracts';
import { Inbox } from './inbox';
import { Outbox } from './outbox';
import { metrics } from '../observability/metrics';
import { isLogLevelOn } from '../observability/app-logger';

const logger = new Logger('EventHandler');

/**
 * The body of every event handler (the counterpart of handleCommand): the payload is validated
 * against its contract, the use case runs once per event (the inbox) in one transaction with
 * the inbox row and whatever events it adds to the outbox, and those are published after commit.
 */
export async function handleEvent<K extends EventTopic>(
  messaging: { inbox: Inbox; outbox: Outbox; consumer: string },
  topic: K,
  contract: ClassConstructor<EventPayload<K> & object>,
  raw: unknown,
  /** What it resolves with (say, the changed record) is not used. */
  apply: (manager: EntityManager, merchantId: number, payload: EventPayload<K>) => Promise<unknown>,
): Promise<void> {
  const outcome = await messaging.inbox.consume(
    messaging.consumer,
    topic,
    raw,
    async (manager, event) => {
      await apply(manager, event.merchant_id, event.payload);
    },
    { contract },
  );
  metrics().countEvent(messaging.consumer, topic, outcome);
  if (isLogLevelOn('debug')) logger.debug(`${messaging.consumer}: ${topic} ${outcome}`);
  messaging.outbox.nudge();
}
