import { InboundReceiptRequest } from '../inbound';
import { OrderView, ShipOrderRequest } from '../order';
import { ReservationRequestEvent, StockReservationFailedEvent } from './stock.events';
import { CarrierEvents } from './carrier.events';
import { CatalogCommands } from './catalog.commands';
import { CatalogEvents } from './catalog.events';
import { ReplyDescriptor } from './definition';
import { InboundCommands } from './inbound.commands';
import { InboundEvents } from './inbound.events';
import { LabelCommands } from './label.commands';
import { LabelEvents } from './label.events';
import { OrderCommands, OrderStateView } from './order.commands';
import { OrderEvents } from './order.events';
import { RatingCommands } from './rating.commands';
import { StockEvents } from './stock.events';
import {
  ADAPTER_DEFINITIONS,
  ADAPTER_TOPICS,
  COMMAND_DEFINITIONS,
  COMMAND_TOPICS,
  CarrierTopic,
  CatalogEvent,
  CatalogTopic,
  EVENT_DEFINITIONS,
  EVENT_TOPICS,
  InboundEvent,
  InboundTopic,
  LabelEvent,
  LabelTopic,
  OrderEvent,
  OrderTopic,
  RatingTopic,
  StockEvent,
  WarehouseEvent,
  WebhookTopic,
  deadLetterTopicOf,
  replyTopicOf,
} from './topics';
import { WarehouseEvents } from './warehouse.events';
import { WebhookCommands } from './webhook.commands';
import { WarehouseOrderShippedEvent } from './warehouse.events';
import { errorsFor } from '@consign/testing/fixtures';

describe('bus topics', () => {
  const all = [...COMMAND_TOPICS, ...EVENT_TOPICS];

  it('are versioned, unique and valid Kafka topic names (reply and dead-letter topics too)', () => {
    expect(new Set(all).size).toBe(all.length);
    const deadLetters = [...EVENT_TOPICS, ...ADAPTER_TOPICS].map(deadLetterTopicOf);
    expect(deadLetterTopicOf('order.created.v1')).toBe('order.created.v1.dlt');
    for (const topic of [...all, ...COMMAND_TOPICS.map(replyTopicOf), ...deadLetters]) {
      expect(topic).toMatch(/^[a-z_]+(\.[a-z_]+)+\.v\d+(\.reply|\.dlt)?$/);
      expect(topic.length).toBeLessThanOrEqual(249);
    }
  });

  it('declare the reference-data topics rating-service answers', () => {
    expect(RatingTopic).toMatchObject({
      ListWarehouses: 'rating.warehouse.list.v1',
      ListServices: 'rating.service.list.v1',
    });
    expect(COMMAND_TOPICS).toEqual(expect.arrayContaining(Object.values(RatingTopic)));
  });
});

describe('bus definitions', () => {
  const isClass = (value: unknown) =>
    typeof value === 'function' && /^[A-Z]/.test(value.name) && value !== Number;
  const isReplyDescriptor = (reply: ReplyDescriptor) =>
    reply === Number ||
    isClass(reply) ||
    (Array.isArray(reply) && reply.length === 1 && isClass(reply[0]));

  it('are one per topic: the topic lists, types and registries are derived from them', () => {
    expect(COMMAND_DEFINITIONS.map((d) => d.topic)).toEqual(COMMAND_TOPICS);
    expect(EVENT_DEFINITIONS.map((d) => d.topic)).toEqual(EVENT_TOPICS);
    expect(ADAPTER_DEFINITIONS.map((d) => d.topic)).toEqual(ADAPTER_TOPICS);
    const topics = [...COMMAND_TOPICS, ...EVENT_TOPICS, ...ADAPTER_TOPICS];
    expect(new Set(topics).size).toBe(topics.length);
    const definitions = [...COMMAND_DEFINITIONS, ...EVENT_DEFINITIONS, ...ADAPTER_DEFINITIONS];
    expect(new Set(definitions).size).toBe(definitions.length);
  });

  it('cover every group, and the topic-name constants name the same topics by the same keys', () => {
    const groups: [Record<string, string>, Record<string, { topic: string }>, readonly string[]][] =
      [
        [CatalogTopic, CatalogCommands, COMMAND_TOPICS],
        [OrderTopic, OrderCommands, COMMAND_TOPICS],
        [InboundTopic, InboundCommands, COMMAND_TOPICS],
        [RatingTopic, RatingCommands, COMMAND_TOPICS],
        [LabelTopic, LabelCommands, COMMAND_TOPICS],
        [WebhookTopic, WebhookCommands, COMMAND_TOPICS],
        [CatalogEvent, CatalogEvents, EVENT_TOPICS],
        [OrderEvent, OrderEvents, EVENT_TOPICS],
        [StockEvent, StockEvents, EVENT_TOPICS],
        [InboundEvent, InboundEvents, EVENT_TOPICS],
        [WarehouseEvent, WarehouseEvents, EVENT_TOPICS],
        [LabelEvent, LabelEvents, EVENT_TOPICS],
        [CarrierTopic, CarrierEvents, ADAPTER_TOPICS],
      ];
    const covered = groups.flatMap(([names, definitions, listed]) => {
      expect(Object.keys(names)).toEqual(Object.keys(definitions));
      for (const [key, definition] of Object.entries(definitions)) {
        expect([key, names[key]]).toEqual([key, definition.topic]);
        expect(listed).toContain(definition.topic);
      }
      return Object.values(names);
    });
    expect([...covered].sort()).toEqual(
      [...COMMAND_TOPICS, ...EVENT_TOPICS, ...ADAPTER_TOPICS].sort(),
    );
    expect(OrderTopic.States).toBe('order.states.v1');
    expect(OrderCommands.States.topic).toBe(OrderTopic.States);
  });

  it('name a request class and a reply descriptor per command, a payload class per event', () => {
    for (const { topic, request, reply } of COMMAND_DEFINITIONS) {
      expect([topic, isClass(request), isReplyDescriptor(reply)]).toEqual([topic, true, true]);
    }
    for (const { topic, payload } of [...EVENT_DEFINITIONS, ...ADAPTER_DEFINITIONS]) {
      expect([topic, isClass(payload)]).toEqual([topic, true]);
    }
    expect(OrderCommands.Create.reply).toBe(Number);
    expect(OrderCommands.States.reply).toEqual([OrderStateView]);
    expect(OrderCommands.Get.reply).toBe(OrderView);
  });
});

describe('operation and event payloads', () => {
  it('a shipment needs carrier, tracking number and at least one package', () => {
    expect(
      errorsFor(ShipOrderRequest, { carrier: 'UPS', tracking_number: '1Z', packages: 1 }),
    ).toEqual([]);
    expect(
      errorsFor(ShipOrderRequest, { carrier: '', tracking_number: '1Z', packages: 0 }),
    ).toEqual(['carrier should not be empty', 'packages must not be less than 1']);
  });

  it('a receipt counts whole units, 0 included, for at least one sku', () => {
    expect(
      errorsFor(InboundReceiptRequest, {
        items: [{ sku_number: '1', quantity: 0 }],
        complete: true,
      }),
    ).toEqual([]);
    expect(errorsFor(InboundReceiptRequest, { items: [] })).toEqual(['items should not be empty']);
    expect(
      errorsFor(InboundReceiptRequest, { items: [{ sku_number: '1', quantity: -1 }] }),
    ).toEqual(['items[0].quantity must not be less than 0']);
  });

  it('consumed events are validated like requests', () => {
    const request = {
      order_id: 1,
      attempt: 1,
      warehouse_code: null,
      lines: [{ sku_number: '7', quantity: 2 }],
    };
    expect(errorsFor(ReservationRequestEvent, request)).toEqual([]);
    expect(errorsFor(ReservationRequestEvent, { ...request, attempt: 0, lines: [] })).toEqual([
      'attempt must not be less than 1',
      'lines should not be empty',
    ]);
    expect(
      errorsFor(StockReservationFailedEvent, {
        order_id: 1,
        attempt: 1,
        reason: 'out_of_luck',
        message: 'x',
        sku_numbers: [],
      }),
    ).toEqual([
      'reason must be one of the following values: unknown_sku, insufficient_stock, no_warehouse',
    ]);
    expect(
      errorsFor(WarehouseOrderShippedEvent, { carrier: 'UPS', tracking_number: '1Z', packages: 2 }),
    ).toEqual(['order_id is required']);
  });
});

describe('adapter topics', () => {
  it('keeps carrier events on their own versioned topic, apart from commands and events', () => {
    expect(ADAPTER_TOPICS).toEqual([CarrierTopic.Checkpoint]);
    expect(CarrierTopic.Checkpoint).toBe('carrier.checkpoint.v1');
    for (const topic of ADAPTER_TOPICS) {
      expect(COMMAND_TOPICS).not.toContain(topic);
      expect(EVENT_TOPICS).not.toContain(topic);
    }
  });
});
