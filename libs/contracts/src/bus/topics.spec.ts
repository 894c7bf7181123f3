import { InboundReceiptRequest } from '../inbound';
import { ShipOrderRequest } from '../order';
import { ReservationRequestEvent, StockReservationFailedEvent } from './stock.events';
import {
  ADAPTER_TOPICS,
  COMMAND_TOPICS,
  CarrierTopic,
  EVENT_TOPICS,
  RatingTopic,
  deadLetterTopicOf,
  replyTopicOf,
} from './topics';
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
