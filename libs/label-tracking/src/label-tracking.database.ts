import { serviceDatabase } from '@consign/platform';
import { CheckpointEntity } from './checkpoint.entity';
import { LabelEntity } from './label.entity';
import { CreateLabels1764000000600 } from './migrations/1764000000600-create-labels';
import { CreateShipment1764000000610 } from './migrations/1764000000610-create-shipment';
import { LabelVoidAndCustoms1764000000620 } from './migrations/1764000000620-label-void-and-customs';
import { ShipmentEntity } from './shipment.entity';
import { TrackingEntity } from './tracking.entity';
import { UnmatchedCheckpointEntity } from './unmatched-checkpoint.entity';

export const LABELS_SCHEMA = 'labels';

export const labelTrackingDatabase = serviceDatabase({
  name: 'label-tracking',
  schema: LABELS_SCHEMA,
  entities: [
    TrackingEntity,
    LabelEntity,
    ShipmentEntity,
    CheckpointEntity,
    UnmatchedCheckpointEntity,
  ],
  migrations: [
    CreateLabels1764000000600,
    CreateShipment1764000000610,
    LabelVoidAndCustoms1764000000620,
  ],
});
