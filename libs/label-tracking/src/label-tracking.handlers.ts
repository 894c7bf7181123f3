import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CarrierEventsResult,
  CreateLabelCommand,
  GetLabelQuery,
  IngestCarrierEventsCommand,
  LabelTopic,
  LabelTrackingView,
  LabelView,
  Reply,
} from '@consign/contracts';
import { handleCommand } from '@consign/platform';
import { CheckpointIngestor, summarise } from './checkpoint-ingestor';
import { LabelService } from './label.service';
import { TrackingService } from './tracking.service';

/** label-tracking-service's bus interface: thin, validate and delegate. */
@Controller()
export class LabelTrackingHandlers {
  constructor(
    private readonly labels: LabelService,
    private readonly tracking: TrackingService,
    private readonly ingestor: CheckpointIngestor,
  ) {}

  @MessagePattern(LabelTopic.Create)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(CreateLabelCommand, payload, (c) =>
      this.labels.create(c.merchant_id, c.label),
    );
  }

  @MessagePattern(LabelTopic.Get)
  get(@Payload() payload: unknown): Promise<Reply<LabelView>> {
    return handleCommand(GetLabelQuery, payload, (q) => this.labels.get(q.merchant_id, q.label_id));
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
}
