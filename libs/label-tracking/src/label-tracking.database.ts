import { serviceDatabase } from '@consign/messaging';
import { CreateLabels1764000000600 } from './migrations/1764000000600-create-labels';
import { CreateShipment1764000000610 } from './migrations/1764000000610-create-shipment';
import { LabelVoidAndCustoms1764000000620 } from './migrations/1764000000620-label-void-and-customs';

export const LABELS_SCHEMA = 'labels';

/**
 * label-tracking-service's schema: parcels (tracking) with their checkpoints, labels, shipments
 * and parked carrier events (read and written with SQL, see TrackingRepository, LabelRepository
 * and ShipmentRepository).
 */
export const labelTrackingDatabase = serviceDatabase({
  name: 'label-tracking',
  schema: LABELS_SCHEMA,
  entities: [],
  migrations: [
    CreateLabels1764000000600,
    CreateShipment1764000000610,
    LabelVoidAndCustoms1764000000620,
  ],
});
