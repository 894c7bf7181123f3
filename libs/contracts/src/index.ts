export * from './common';
export * from './catalog';
export * from './bus';
export * from './order';
export * from './inbound';
export * from './label';
export * from './rating';
export * from './webhook';
