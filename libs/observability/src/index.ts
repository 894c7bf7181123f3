export { isOperationalPath } from './public-route';
export {
  correlationIdOfHeaders,
  correlationIdOrNew,
  currentCommand,
  currentConsumedMessage,
  currentCorrelationId,
  isSaneCorrelationId,
  runInMessageScope,
  runWithCorrelationId,
} from './correlation';
export type { IncomingCommand } from './correlation';
export { createAppLogger, isLogLevelOn } from './app-logger';
export type { LogFormat } from './app-logger';
export { metrics } from './metrics';
export type { BusOutcome, CommandOutcome } from './metrics';
export { ConsumerGroups, consumerLag } from './consumer-lag';
export type { LagProbe, LagSample } from './consumer-lag';
export {
  activeSpanIds,
  continueTraceOf,
  currentTraceCarrier,
  runInStoredTrace,
  runOutsideTrace,
} from './trace-context';
export type { TraceCarrier } from './trace-context';
export { noteRequestMerchant } from './access-log';
export { OutboxHealth, outboxHealth } from './outbox-health';
export { instrumentHttp } from './http-observability';
