export * from './webhook.module';
export * from './webhook.config';
export * from './webhook.database';
export * from './webhook.handlers';
export * from './retry-schedule';
