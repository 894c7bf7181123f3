import { Module } from '@nestjs/common';
import { CLOCK, systemClock } from '@consign/core';
import { loadConfigOf } from '@consign/config';
import { CarrierCheckpointConsumer } from './carrier-checkpoint.consumer';
import { CheckpointIngestor } from './checkpoint-ingestor';
import { ExpirySweeper } from './expiry-sweeper';
import { LabelService } from './label.service';
import { LabelDocumentService } from './label-document.service';
import { LabelVoidService } from './label-void.service';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelTrackingConfig } from './label-tracking.config';
import { LabelTrackingHandlers } from './label-tracking.handlers';
import { CheckpointNormaliser } from './normalisation/normalise-checkpoint';
import { ShipmentService } from './shipment.service';
import { TrackingService } from './tracking.service';
import { RatingClientModule } from '@consign/rating-client';
import { LabelRepository } from './label.repository';
import { ShipmentRepository } from './shipment.repository';
import { TrackingRepository } from './tracking.repository';

/**
 * label-tracking-service: labels, orders' shipments, carrier checkpoints and their normalisation,
 * label and order tracking.
 */
@Module({
  imports: [labelTrackingDatabase.module, RatingClientModule],
  controllers: [LabelTrackingHandlers],
  providers: [
    { provide: LabelTrackingConfig, useFactory: () => loadConfigOf(LabelTrackingConfig) },
    { provide: CLOCK, useValue: systemClock },
    { provide: CheckpointNormaliser, useValue: new CheckpointNormaliser() },
    LabelService,
    LabelDocumentService,
    LabelVoidService,
    TrackingService,
    ShipmentService,
    CheckpointIngestor,
    CarrierCheckpointConsumer,
    ExpirySweeper,
    LabelRepository,
    ShipmentRepository,
    TrackingRepository,
  ],
})
export class LabelTrackingModule {}
