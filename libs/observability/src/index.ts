export * from './public-route';
export * from './correlation';
export * from './app-logger';
export * from './metrics';
export * from './consumer-lag';
export * from './trace-context';
export { noteRequestMerchant } from './access-log';
export { OutboxHealth, outboxHealth } from './outbox-health';
export { METRICS_PATH, instrumentHttp } from './http-observability';
