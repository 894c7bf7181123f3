import { startTracingIfConfigured } from '@consign/tracing';

// The first import of main.ts: when tracing is configured, the OpenTelemetry SDK must patch
// http, pg and kafkajs before anything requires them (imports run in order).
startTracingIfConfigured('webhook-dispatcher');
