import { InProcessBroker, loadConfig } from '@consign/platform';
import { CarrierCheckpointConsumer } from './carrier-checkpoint.consumer';
import {
  LabelTrackingHarness,
  aCarrierEvent,
  startLabelTracking,
} from './testing/label-tracking.harness';

describe('CarrierCheckpointConsumer', () => {
  let h: LabelTrackingHarness;
  let consumer: CarrierCheckpointConsumer;

  beforeAll(async () => {
    h = await startLabelTracking();
    consumer = new CarrierCheckpointConsumer(
      loadConfig({}),
      new InProcessBroker(),
      h.ingestor,
      h.dataSource,
      h.outbox,
    );
  });

  afterAll(async () => {
    await h.close();
  });

  it('writes the valid events of a batch and parks the others with the reason', async () => {
    const id = await h.createLabel();
    await consumer.handle([
      { key: String(id), value: { ...aCarrierEvent({ label_id: id }), unknown: 'dropped' } },
      { key: null, value: 'not JSON at all' },
      { key: null, value: { ...aCarrierEvent({ label_id: id }), carrier_code: 'dhl' } },
    ]);
    const { checkpoints } = await h.tracking.labelTracking(1, id);
    expect(checkpoints[0]).toMatchObject({ description: 'Processed at LEIPZIG - GERMANY' });
    const parked = await h.dataSource.query(
      `SELECT consumer, topic, envelope, error FROM labels.dead_letter ORDER BY id`,
    );
    expect(parked).toEqual([
      {
        consumer: 'label-tracking',
        topic: 'carrier.checkpoint.v1',
        envelope: 'not JSON at all',
        error: 'Validation failed: body must be a JSON object',
      },
      {
        consumer: 'label-tracking',
        topic: 'carrier.checkpoint.v1',
        envelope: expect.objectContaining({ carrier_code: 'dhl' }),
        error: expect.stringContaining('carrier_code must be a carrier code'),
      },
    ]);
  });

  it('with Kafka, also puts invalid events on carrier.checkpoint.v1.dlt (via the outbox) with their key and headers', async () => {
    const distributed = new CarrierCheckpointConsumer(
      loadConfig({ KAFKA_BROKERS: '127.0.0.1:9' }),
      new InProcessBroker(),
      h.ingestor,
      h.dataSource,
      h.outbox,
    );
    const id = await h.createLabel();
    await distributed.handle([
      { key: 'parcel-1', value: { label_id: id }, headers: { 'x-correlation-id': 'c-1' } },
      { key: String(id), value: aCarrierEvent({ label_id: id }) },
    ]);
    const rows = await h.dataSource.query(
      `SELECT topic, message_key, envelope, headers FROM labels.outbox_event
       WHERE topic = 'carrier.checkpoint.v1.dlt'`,
    );
    expect(rows).toEqual([
      {
        topic: 'carrier.checkpoint.v1.dlt',
        message_key: 'parcel-1',
        envelope: { label_id: id },
        headers: {
          'x-correlation-id': 'c-1',
          'x-dlt-consumer': 'label-tracking',
          'x-dlt-error': expect.stringContaining('event_code'),
          'x-dlt-attempts': '1',
          'x-dlt-failed-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    ]);
    // the valid event of the same batch is written all the same
    const { checkpoints } = await h.tracking.labelTracking(1, id);
    expect(checkpoints).toContainEqual(
      expect.objectContaining({ description: 'Processed at LEIPZIG - GERMANY' }),
    );
  });

  it('does not acknowledge a batch whose write failed (the broker delivers it again)', async () => {
    const failing = new CarrierCheckpointConsumer(
      loadConfig({}),
      new InProcessBroker(),
      { ingest: async () => Promise.reject(new Error('database down')) } as never,
      h.dataSource,
      h.outbox,
    );
    await expect(
      failing.handle([{ key: null, value: aCarrierEvent({ label_id: 1 }) }]),
    ).rejects.toThrow('database down');
  });
});
