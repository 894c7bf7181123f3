import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CarrierEventsResult,
  LabelCommands,
  LabelDocumentView,
  LabelTrackingView,
  LabelView,
  OrderEvents,
  OrderTrackingView,
  Reply,
  ShipmentParcelView,
} from '@consign/contracts';
import { CommandLedger, Inbox, handleCommand } from '@consign/messaging';
import { labelTrackingDatabase } from './label-tracking.database';
import { ShipmentService, ShippedParcel } from './shipment.service';
import { CheckpointIngestor, summarise } from './checkpoint-ingestor';
import { LabelService } from './label.service';
import { LabelDocumentService } from './label-document.service';
import { LabelVoidService } from './label-void.service';
import { TrackingService } from './tracking.service';

/** label-tracking-service's bus interface: thin, validate and delegate. */
@Controller()
export class LabelTrackingHandlers {
  constructor(
    private readonly labels: LabelService,
    private readonly documents: LabelDocumentService,
    private readonly voids: LabelVoidService,
    private readonly tracking: TrackingService,
    private readonly ingestor: CheckpointIngestor,
    private readonly shipments: ShipmentService,
    @Inject(labelTrackingDatabase.inbox) private readonly inbox: Inbox,
    @Inject(labelTrackingDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  @MessagePattern(LabelCommands.Create.topic)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(
      LabelCommands.Create,
      payload,
      (c) => this.labels.create(c.merchant_id, c.label),
      this.commands,
    );
  }

  @MessagePattern(LabelCommands.Get.topic)
  get(@Payload() payload: unknown): Promise<Reply<LabelView>> {
    return handleCommand(LabelCommands.Get, payload, (q) =>
      this.labels.get(q.merchant_id, q.label_id),
    );
  }

  @MessagePattern(LabelCommands.GetDocument.topic)
  document(@Payload() payload: unknown): Promise<Reply<LabelDocumentView>> {
    return handleCommand(LabelCommands.GetDocument, payload, (q) =>
      this.documents.render(q.merchant_id, q.label_id, q.format, q.type),
    );
  }

  @MessagePattern(LabelCommands.Void.topic)
  void(@Payload() payload: unknown): Promise<Reply<LabelView>> {
    return handleCommand(
      LabelCommands.Void,
      payload,
      (q) => this.voids.void(q.merchant_id, q.label_id),
      this.commands,
    );
  }

  @MessagePattern(LabelCommands.GetTracking.topic)
  getTracking(@Payload() payload: unknown): Promise<Reply<LabelTrackingView>> {
    return handleCommand(LabelCommands.GetTracking, payload, (q) =>
      this.tracking.labelTracking(q.merchant_id, q.label_id),
    );
  }

  /** Whether an order may ship with a carrier and number (the gateway asks before the ship). */
  @MessagePattern(LabelCommands.CheckShipment.topic)
  checkShipment(@Payload() payload: unknown): Promise<Reply<ShipmentParcelView>> {
    return handleCommand(LabelCommands.CheckShipment, payload, (q) =>
      this.shipments.check(q.merchant_id, q.shipment),
    );
  }

  /** A carrier's webhook batch: answered only once every event is persisted (or parked). */
  @MessagePattern(LabelCommands.IngestCarrierEvents.topic)
  ingest(@Payload() payload: unknown): Promise<Reply<CarrierEventsResult>> {
    return handleCommand(LabelCommands.IngestCarrierEvents, payload, async (c) =>
      summarise(
        await this.ingestor.ingest(
          c.events.map((event) => ({ ...event, carrier_code: c.carrier_code })),
        ),
      ),
    );
  }

  @MessagePattern(LabelCommands.GetOrderTracking.topic)
  orderTracking(@Payload() payload: unknown): Promise<Reply<OrderTrackingView[]>> {
    return handleCommand(LabelCommands.GetOrderTracking, payload, (q) =>
      this.tracking.orderTracking(q.merchant_id, q.order_id),
    );
  }

  /**
   * An order left the warehouse: its parcel is tracked from now on (once per event: the inbox);
   * then carrier events that waited for its tracking number are attached.
   */
  @EventPattern(OrderEvents.Shipped.topic)
  async orderShipped(@Payload() raw: unknown): Promise<void> {
    let parcel: ShippedParcel | undefined;
    await this.inbox.consume(
      LABEL_TRACKING_CONSUMER,
      OrderEvents.Shipped.topic,
      raw,
      async (manager, event) => {
        parcel = await this.shipments.recordShipped(
          manager,
          event.merchant_id,
          event.payload,
          new Date(event.occurred_at),
        );
      },
      { contract: OrderEvents.Shipped.payload },
    );
    if (parcel) await this.ingestor.adoptParked([parcel]);
  }
}

/** The consumer name of label-tracking-service's inbox. */
export const LABEL_TRACKING_CONSUMER = 'label-tracking-service';
