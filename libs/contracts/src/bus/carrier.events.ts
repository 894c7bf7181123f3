import { CarrierCheckpointEvent } from '../label';
import { event } from './definition';

/**
 * What carrier adapters publish: raw carrier events (`CarrierCheckpointEvent`, not wrapped in an
 * EventEnvelope: a carrier knows parcels, not merchants), consumed in batches by
 * label-tracking-service. Adapter topics, outside the command and event maps.
 */
export const CarrierEvents = {
  Checkpoint: event('carrier.checkpoint.v1', CarrierCheckpointEvent),
};
