import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CarrierEventsResult,
  CreateLabelCommand,
  GetLabelDocumentQuery,
  GetLabelQuery,
  LabelDocumentView,
  IngestCarrierEventsCommand,
  GetOrderTrackingQuery,
  LabelTopic,
  LabelTrackingView,
  LabelView,
  OrderEvent,
  OrderShippedEvent,
  OrderTrackingView,
  Reply,
} from '@consign/contracts';
import { CommandLedger, Inbox, Outbox, handleCommand } from '@consign/platform';
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
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    @Inject(labelTrackingDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  @MessagePattern(LabelTopic.Create)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(
      CreateLabelCommand,
      payload,
      (c) => this.labels.create(c.merchant_id, c.label),
      this.commands,
    );
  }

  @MessagePattern(LabelTopic.Get)
  get(@Payload() payload: unknown): Promise<Reply<LabelView>> {
    return handleCommand(GetLabelQuery, payload, (q) => this.labels.get(q.merchant_id, q.label_id));
  }

  @MessagePattern(LabelTopic.GetDocument)
  document(@Payload() payload: unknown): Promise<Reply<LabelDocumentView>> {
    return handleCommand(GetLabelDocumentQuery, payload, (q) =>
      this.documents.render(q.merchant_id, q.label_id, q.format, q.type),
    );
  }

  @MessagePattern(LabelTopic.Void)
  void(@Payload() payload: unknown): Promise<Reply<LabelView>> {
    return handleCommand(
      GetLabelQuery,
      payload,
      (q) => this.voids.void(q.merchant_id, q.label_id),
      this.commands,
    );
  }

  @MessagePattern(LabelTopic.GetTracking)
  getTracking(@Payload() payload: unknown): Promise<Reply<LabelTrackingView>> {
    return handleCommand(GetLabelQuery, payload, (q) =>
      this.tracking.labelTracking(q.merchant_id, q.label_id),
    );
  }

  /** A carrier's webhook batch: answered only once every event is persisted (or parked). */
  @MessagePattern(LabelTopic.IngestCarrierEvents)
  ingest(@Payload() payload: unknown): Promise<Reply<CarrierEventsResult>> {
    return handleCommand(IngestCarrierEventsCommand, payload, async (c) =>
      summarise(
        await this.ingestor.ingest(
          c.events.map((event) => ({ ...event, carrier_code: c.carrier_code })),
        ),
      ),
    );
  }

  @MessagePattern(LabelTopic.GetOrderTracking)
  orderTracking(@Payload() payload: unknown): Promise<Reply<OrderTrackingView[]>> {
    return handleCommand(GetOrderTrackingQuery, payload, (q) =>
      this.tracking.orderTracking(q.merchant_id, q.order_id),
    );
  }

  /**
   * An order left the warehouse: its parcel is tracked from now on (once per event: the inbox);
   * then carrier events that waited for its tracking number are attached.
   */
  @EventPattern(OrderEvent.Shipped)
  async orderShipped(@Payload() raw: unknown): Promise<void> {
    let parcel: ShippedParcel | undefined;
    await this.inbox.consume(
      LABEL_TRACKING_CONSUMER,
      OrderEvent.Shipped,
      raw,
      async (manager, event) => {
        parcel = await this.shipments.recordShipped(
          manager,
          event.merchant_id,
          event.payload,
          new Date(event.occurred_at),
        );
      },
      { contract: OrderShippedEvent },
    );
    this.outbox.nudge();
    if (parcel) await this.ingestor.adoptParked([parcel]);
  }
}

/** The consumer name of label-tracking-service's inbox. */
export const LABEL_TRACKING_CONSUMER = 'label-tracking-service';
