/* eslint-disable @typescript-eslint/no-require-imports -- the OpenTelemetry SDK is loaded only
   when tracing is configured, and synchronously: it must patch http, pg and kafkajs before the
   app requires them, so an async import() would come too late. */
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * OpenTelemetry tracing of a Consign process, off unless configured. This library depends on
 * nothing of ours and loads nothing at import: each app's `src/tracing.ts` calls
 * startTracingIfConfigured as its main's first import, before Nest, pg and kafkajs are required.
 */

export interface Tracing {
  /** Flushes the spans still buffered and stops the SDK (on exit). */
  shutdown(): Promise<void>;
}

/**
 * Tracing is on when an OTLP endpoint is given (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or an exporter is chosen (OTEL_TRACES_EXPORTER, e.g.
 * `otlp` or `console`; `none` keeps it off).
 */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ||
    exporter,
  );
}

let started: Tracing | undefined;

/**
 * Starts OpenTelemetry tracing (the Node tracer provider and its instrumentations) for `serviceName` when tracing is configured: spans for
 * incoming and outgoing HTTP (and Fastify's request, hooks and handler, by @fastify/otel), PostgreSQL queries (pg) and Kafka produce and
 * consume (kafkajs, with the trace context in the message headers), exported over OTLP/HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT (or as OTEL_TRACES_EXPORTER says). Returns undefined, having
 * loaded nothing, when it is not configured. Idempotent.
 */
export function startTracingIfConfigured(
  serviceName: string,
  options: { env?: NodeJS.ProcessEnv; spanProcessors?: SpanProcessor[] } = {},
): Tracing | undefined {
  const env = options.env ?? process.env;
  if (started) return started;
  if (!options.spanProcessors && !tracingConfigured(env)) return undefined;

  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor, ConsoleSpanExporter } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME } =
    require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { KafkaJsInstrumentation } =
    require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs');

  // The tracer provider alone, not the NodeSDK bundle (which also loads every exporter, metrics
  // and logs): a traced process starts noticeably faster. OTLP over HTTP with JSON, or the
  // console when OTEL_TRACES_EXPORTER=console; sampling and batching from the standard OTEL_*
  // variables.
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  const spanProcessors = options.spanProcessors ?? [
    new BatchSpanProcessor(
      exporter === 'console'
        ? new ConsoleSpanExporter()
        : new (
            require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')
          ).OTLPTraceExporter(),
    ),
  ];
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors,
  });
  // Global tracer provider, AsyncLocalStorage context manager, W3C trace-context propagation.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => isOperationalPath(request.url),
      }),
      // Fastify's own instrumentation (the OpenTelemetry one is deprecated in its favour): a
      // span per request with its route, and per hook and handler. Registered on every Fastify
      // instance as it is created (Nest's adapter creates it), before any route.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => isOperationalPath(route.url),
      }),
      new PgInstrumentation(),
      new KafkaJsInstrumentation(),
    ],
  });
  started = {
    shutdown: async () => {
      started = undefined;
      await provider.shutdown();
    },
  };
  return started;
}

/** Metrics scrapes and health probes: every few seconds, they would drown the traces that matter. */
function isOperationalPath(url: string | undefined): boolean {
  return url === '/metrics' || (url ?? '').startsWith('/health/');
}

/** Flushes and stops tracing if it was started (a no-op otherwise). */
export async function shutdownTracing(): Promise<void> {
  await started?.shutdown();
}
