export * from './rating-client';
