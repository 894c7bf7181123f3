export * from './label-tracking.module';
export * from './label-tracking.database';
export * from './label-tracking.config';
export * from './normalisation/normalise-checkpoint';
export * from './normalisation/carrier-table';
export * from './normalisation/carrier-tables';
export * from './checkpoint-ingestor';
/** The checkpoint ingestor's repositories (for constructing it outside Nest, e.g. in benchmarks). */
export { TrackingRepository } from './tracking.repository';
export { ShipmentRepository } from './shipment.repository';
export * from './documents/label-documents';
export type { AllocatedLabel } from './documents/label-layout';
