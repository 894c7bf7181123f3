import { DataSource } from 'typeorm';
import { CarrierCheckpointEvent, CreateLabelRequest, validateContract } from '@consign/contracts';
import {
  DatabaseHost,
  FakeClock,
  InProcessBroker,
  InProcessClient,
  Outbox,
  TestDatabase,
  createTestDatabase,
} from '@consign/platform';
import { CheckpointIngestor } from '../checkpoint-ingestor';
import { ExpirySweeper } from '../expiry-sweeper';
import { LabelService } from '../label.service';
import { labelTrackingDatabase } from '../label-tracking.database';
import { LabelTrackingConfig } from '../label-tracking.config';
import { CheckpointNormaliser } from '../normalisation/normalise-checkpoint';
import { TrackingService } from '../tracking.service';

/** label-tracking's services on a fresh test database, with a fake clock and an in-process bus. */
export interface LabelTrackingHarness {
  dataSource: DataSource;
  clock: FakeClock;
  broker: InProcessBroker;
  outbox: Outbox;
  labels: LabelService;
  tracking: TrackingService;
  ingestor: CheckpointIngestor;
  sweeper: ExpirySweeper;
  /** Creates a label for the merchant; returns its id. */
  createLabel(merchantId?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startLabelTracking(
  config: Partial<LabelTrackingConfig> = {},
): Promise<LabelTrackingHarness> {
  const database: TestDatabase = await createTestDatabase();
  const host = new DatabaseHost(database.target);
  const dataSource = await host.openServiceDataSource(labelTrackingDatabase.options);
  const clock = new FakeClock('2026-05-01T08:00:00.000Z');
  const broker = new InProcessBroker();
  const outbox = new Outbox(dataSource, new InProcessClient(broker), 'labels');
  const settings = Object.assign(new LabelTrackingConfig(), config);
  const labels = new LabelService(dataSource, outbox, clock);
  const ingestor = new CheckpointIngestor(dataSource, new CheckpointNormaliser(), settings);
  return {
    dataSource,
    clock,
    broker,
    outbox,
    labels,
    tracking: new TrackingService(dataSource),
    ingestor,
    sweeper: new ExpirySweeper(dataSource, clock, settings),
    async createLabel(merchantId = 1) {
      const request = validateContract(CreateLabelRequest, aLabelRequest());
      if (!request.ok) throw new Error(request.errors.join('; '));
      return labels.create(merchantId, request.value);
    },
    async close() {
      await ingestor.drain();
      await host.close();
      await database.drop();
    },
  };
}

/** A carrier event for a label; override what a test is about. */
export function aCarrierEvent(
  overrides: Partial<CarrierCheckpointEvent> = {},
): CarrierCheckpointEvent {
  return Object.assign(new CarrierCheckpointEvent(), {
    carrier_code: 'DHL',
    event_code: 'PL',
    description: 'Processed at LEIPZIG - GERMANY',
    location: 'Leipzig, DE',
    event_time: '2026-05-02T10:00:00+02:00',
    ...overrides,
  });
}

/** The required fields of a label request. */
export function aLabelRequest(): Record<string, unknown> {
  const address = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+44 20 7946 0000',
    address1: '12 St James Square',
    city: 'London',
    country: 'United Kingdom',
    country_code: 'GB',
  };
  return {
    shipping_address: address,
    shipper_address: { ...address, first_name: 'Charles', last_name: 'Babbage' },
    reference: 'ORDER-1002',
    currency: 'GBP',
    weight_unit: 'kg',
    service: { service_code: 'DHL-EXPRESS', inco_term: 'DDP' },
    items: [{ product_name: 'Mug', quantity: 1, weight: 0.8, unit_price: 9.5 }],
  };
}
