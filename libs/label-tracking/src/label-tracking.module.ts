import { Module } from '@nestjs/common';
import { CLOCK, loadConfigOf, systemClock } from '@consign/platform';
import { CarrierCheckpointConsumer } from './carrier-checkpoint.consumer';
import { CheckpointIngestor } from './checkpoint-ingestor';
import { ExpirySweeper } from './expiry-sweeper';
import { LabelService } from './label.service';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelTrackingConfig } from './label-tracking.config';
import { LabelTrackingHandlers } from './label-tracking.handlers';
import { CheckpointNormaliser } from './normalisation/normalise-checkpoint';
import { TrackingService } from './tracking.service';

/** label-tracking-service: labels, shipments, carrier checkpoints and their normalisation. */
@Module({
  imports: [labelTrackingDatabase.module],
  controllers: [LabelTrackingHandlers],
  providers: [
    { provide: LabelTrackingConfig, useFactory: () => loadConfigOf(LabelTrackingConfig) },
    { provide: CLOCK, useValue: systemClock },
    { provide: CheckpointNormaliser, useValue: new CheckpointNormaliser() },
    LabelService,
    TrackingService,
    CheckpointIngestor,
    CarrierCheckpointConsumer,
    ExpirySweeper,
  ],
})
export class LabelTrackingModule {}
