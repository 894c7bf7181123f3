import {
  Context,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  context,
  isSpanContextValid,
  propagation,
  trace,
} from '@opentelemetry/api';

/**
 * The OpenTelemetry trace context across the outbox and the buses. Only the OpenTelemetry API is
 * used here: without a registered SDK (tracing off, see @consign/tracing) every call is a no-op
 * of the API's own (no propagator, no context manager, no spans).
 */

/** A W3C trace context as it travels: the `traceparent` header and, when set, `tracestate`. */
// A type, not an interface: it is also a header record (index signature).
export type TraceCarrier = {
  traceparent: string;
  tracestate?: string;
};

const TRACER_NAME = '@consign/platform';

/**
 * The W3C trace context of the span the caller runs in (an HTTP request, a consumed message),
 * for an outbox row; undefined outside a trace, and whenever tracing is off.
 */
export function currentTraceCarrier(): TraceCarrier | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const { traceparent, tracestate } = carrier;
  if (!traceparent) return undefined;
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/**
 * Runs `work` in the trace a stored carrier names (the request that wrote an outbox row), not in
 * whatever context the caller happens to be in (the relay runs on a timer, or after the commit
 * of an unrelated request): a producer span that instrumentation starts inside is that trace's.
 * Without a carrier, `work` runs in no trace.
 */
export function runInStoredTrace<T>(carrier: TraceCarrier | null | undefined, work: () => T): T {
  const parent = carrier?.traceparent ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  return context.with(parent, work);
}

/** Runs `work` outside any trace (a background loop that must not join a request's trace). */
export function runOutsideTrace<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}

/** The message headers a consumer reads the trace context from (strings, as the buses give them). */
type Headers = Readonly<Record<string, unknown>> | null | undefined;

const headerGetter = {
  get(carrier: Readonly<Record<string, unknown>>, key: string): string | undefined {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
  },
  keys(carrier: Readonly<Record<string, unknown>>): string[] {
    return Object.keys(carrier);
  },
};

/**
 * Handles a consumed message in the trace its `traceparent` header continues: a CONSUMER span
 * `process <topic>` whose parent is the producer's. When a span of that trace is already active
 * under another id (kafkajs's instrumentation starts its own `process <topic>` span around
 * Nest's handler), that one continues it and no second span is made. Without a trace context in
 * the headers, or with tracing off, `work` runs as it is.
 */
export function continueTraceOf<T>(topic: string, headers: Headers, work: () => T): T {
  if (!headers) return work();
  const parent = propagation.extract(ROOT_CONTEXT, headers, headerGetter);
  const remote = trace.getSpanContext(parent);
  if (!remote || !isSpanContextValid(remote)) return work();
  const active = trace.getSpanContext(context.active());
  if (active && active.traceId === remote.traceId && active.spanId !== remote.spanId) return work();
  const span = trace.getTracer(TRACER_NAME).startSpan(
    `process ${topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.destination.name': topic,
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
      },
    },
    parent,
  );
  return runInSpan(trace.setSpan(parent, span), span, work);
}

/** Runs `work` with `span` active and ends the span when `work` (or its promise) is done. */
function runInSpan<T>(spanContext: Context, span: Span, work: () => T): T {
  let result: T;
  try {
    result = context.with(spanContext, work);
  } catch (error: unknown) {
    failSpan(span, error);
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        failSpan(span, error);
        throw error;
      },
    ) as T;
  }
  span.end();
  return result;
}

function failSpan(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  span.end();
}

/** The ids of the span the caller runs in, for a log line; undefined outside a trace. */
export function activeSpanIds(): { traceId: string; spanId: string } | undefined {
  const spanContext = trace.getSpanContext(context.active());
  return spanContext && isSpanContextValid(spanContext)
    ? { traceId: spanContext.traceId, spanId: spanContext.spanId }
    : undefined;
}
