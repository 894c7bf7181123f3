export * from './label-tracking.module';
export * from './label-tracking.database';
export * from './label-tracking.config';
export * from './normalisation/normalise-checkpoint';
export * from './normalisation/carrier-table';
export * from './normalisation/carrier-tables';
export * from './checkpoint-ingestor';
export * from './documents/label-documents';
export type { AllocatedLabel } from './documents/label-layout';
