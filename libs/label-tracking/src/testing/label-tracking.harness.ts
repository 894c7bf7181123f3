import { DataSource } from 'typeorm';
import {
  CarrierCheckpointEvent,
  CarrierServiceView,
  CommandReply,
  CommandRequest,
  CreateLabelRequest,
  FreightCostResultView,
  IncoTerm,
  RatingTopic,
  Reply,
  RestrictedContent,
  success,
  validateContract,
} from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { CommandLedger, Outbox } from '@consign/messaging';
import { DatabaseHost } from '@consign/database';
import { FakeClock } from '@consign/core';
import { CheckpointIngestor } from '../checkpoint-ingestor';
import { ExpirySweeper } from '../expiry-sweeper';
import { LabelDocumentService } from '../label-document.service';
import { LabelVoidService } from '../label-void.service';
import { LabelService } from '../label.service';
import { labelTrackingDatabase } from '../label-tracking.database';
import { LabelTrackingConfig } from '../label-tracking.config';
import { CheckpointNormaliser } from '../normalisation/normalise-checkpoint';
import { ShipmentService } from '../shipment.service';
import { TrackingService } from '../tracking.service';
import { createTestDatabase, TestDatabase } from '@consign/testing';
import { minimalLabelAddress } from '@consign/testing/fixtures';
import { RatingClient } from '@consign/rating-client';
import { LabelRepository } from '../label.repository';
import { ShipmentRepository } from '../shipment.repository';
import { TrackingRepository } from '../tracking.repository';

/** The carrier services rating-service would list (the parts label-tracking reads). */
export const TEST_SERVICES = [
  {
    service_code: 'DHL-EXPRESS',
    carrier: 'DHL',
    inco_terms: [IncoTerm.DAP, IncoTerm.DDP],
    restricted_contents: [RestrictedContent.Alcohol, RestrictedContent.DangerousGoods],
  },
  {
    service_code: 'USPS-INTL',
    carrier: 'USPS',
    inco_terms: [IncoTerm.DAP],
    restricted_contents: [
      RestrictedContent.Battery,
      RestrictedContent.Liquid,
      RestrictedContent.Alcohol,
      RestrictedContent.DangerousGoods,
    ],
  },
  {
    service_code: 'UPS-STANDARD',
    carrier: 'UPS',
    inco_terms: [IncoTerm.DAP],
    restricted_contents: [RestrictedContent.DangerousGoods],
  },
] as CarrierServiceView[];

/** rating-service's price for any freight request the tests make. */
export const TEST_PRICE: FreightCostResultView = {
  carrier_code: 'DHL',
  inco_term: IncoTerm.DDP,
  amount: 42.5,
  shipping: 30,
  fuel_surcharge: 8.25,
  remote_area_surcharge: 0,
  vat: 0,
  duty: 0,
  ddp_handling: 4.25,
  currency: 'USD',
  customs_form: null,
  message: 'success',
};

/** What label-tracking asks rating-service, answered from TEST_SERVICES and TEST_PRICE. */
export class FakeRating {
  readonly freightRequests: CommandRequest<typeof RatingTopic.CalculateFreight>[] = [];
  answer: Reply<FreightCostResultView> = success(TEST_PRICE);

  readonly reference = { services: async () => TEST_SERVICES } as unknown as RatingClient;
  readonly bus = {
    request: async <K extends typeof RatingTopic.CalculateFreight>(
      _topic: K,
      payload: CommandRequest<K>,
    ): Promise<Reply<CommandReply<K>>> => {
      this.freightRequests.push(payload);
      return this.answer;
    },
  } as unknown as CommandBus;
}

/** label-tracking's services on a fresh test database, with a fake clock and an in-process bus. */
export interface LabelTrackingHarness {
  rating: FakeRating;
  dataSource: DataSource;
  clock: FakeClock;
  broker: InProcessBroker;
  outbox: Outbox;
  commands: CommandLedger;
  labels: LabelService;
  documents: LabelDocumentService;
  voids: LabelVoidService;
  tracking: TrackingService;
  ingestor: CheckpointIngestor;
  sweeper: ExpirySweeper;
  shipments: ShipmentService;
  /** Creates a label for the merchant (DHL-EXPRESS unless `service` says); returns its id. */
  createLabel(
    merchantId?: number,
    service?: { service_code: string; inco_term: string },
  ): Promise<number>;
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
  const rating = new FakeRating();
  const commands = new CommandLedger(dataSource, 'labels');
  const labelRows = new LabelRepository();
  const shipmentRows = new ShipmentRepository();
  const parcels = new TrackingRepository();
  const labels = new LabelService(
    dataSource,
    outbox,
    commands,
    clock,
    rating.reference,
    rating.bus,
    labelRows,
  );
  const ingestor = new CheckpointIngestor(
    dataSource,
    outbox,
    new CheckpointNormaliser(),
    settings,
    parcels,
    shipmentRows,
  );
  return {
    rating,
    dataSource,
    clock,
    broker,
    outbox,
    commands,
    labels,
    documents: new LabelDocumentService(labels),
    voids: new LabelVoidService(outbox, commands, clock, labels, labelRows),
    tracking: new TrackingService(dataSource, parcels),
    ingestor,
    sweeper: new ExpirySweeper(dataSource, outbox, clock, settings, parcels),
    shipments: new ShipmentService(dataSource, outbox, shipmentRows, parcels),
    async createLabel(merchantId = 1, service) {
      const request = validateContract(CreateLabelRequest, {
        ...aLabelRequest(),
        ...(service ? { service } : {}),
      });
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
  const address = minimalLabelAddress();
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
