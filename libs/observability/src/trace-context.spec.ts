import { SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { AppLogger, logLevelsUpTo } from './app-logger';
import {
  activeSpanIds,
  continueTraceOf,
  currentTraceCarrier,
  runInStoredTrace,
  runOutsideTrace,
} from './trace-context';

// What @consign/tracing registers when tracing is on: a global provider, AsyncLocalStorage
// context and the W3C propagator.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('test');

afterAll(() => provider.shutdown());
beforeEach(() => exporter.reset());

/** Runs `work` inside a new span, as an HTTP request's instrumentation would. */
function inSpan<T>(name: string, work: () => T): T {
  return tracer.startActiveSpan(name, (span) => {
    try {
      return work();
    } finally {
      span.end();
    }
  });
}

describe('trace context across the outbox and the buses', () => {
  it('captures the current span as a W3C traceparent, and nothing outside a trace', () => {
    expect(currentTraceCarrier()).toBeUndefined();
    const { carrier, ids } = inSpan('POST /order', () => ({
      carrier: currentTraceCarrier(),
      ids: activeSpanIds(),
    }));
    expect(carrier).toEqual({ traceparent: `00-${ids?.traceId}-${ids?.spanId}-01` });
  });

  it('runs a stored event in the trace that wrote it, whatever context the relay is in', () => {
    const carrier = inSpan('POST /order', () => currentTraceCarrier());
    const traceId = carrier?.traceparent.split('-')[1];
    inSpan('another request', () => {
      expect(runInStoredTrace(carrier, () => activeSpanIds()?.traceId)).toBe(traceId);
      expect(runInStoredTrace(null, () => activeSpanIds())).toBeUndefined();
      expect(runOutsideTrace(() => activeSpanIds())).toBeUndefined();
    });
  });

  it('continues a consumed message’s trace in a CONSUMER span, ended with its handler', async () => {
    const carrier = inSpan('POST /order', () => currentTraceCarrier());
    const [, traceId, parentSpanId] = carrier?.traceparent.split('-') ?? [];
    const seen = await continueTraceOf('order.created.v1', carrier, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return activeSpanIds();
    });
    expect(seen?.traceId).toBe(traceId);
    const consumer = exporter
      .getFinishedSpans()
      .find((span) => span.name === 'process order.created.v1');
    expect(consumer).toMatchObject({
      kind: SpanKind.CONSUMER,
      attributes: { 'messaging.destination.name': 'order.created.v1' },
    });
    expect(consumer?.spanContext()).toMatchObject({ traceId, spanId: seen?.spanId });
    expect(consumer?.parentSpanContext?.spanId).toBe(parentSpanId);
  });

  it('marks the span failed when the handler fails, and rethrows', async () => {
    const carrier = inSpan('POST /order', () => currentTraceCarrier());
    await expect(
      continueTraceOf('stock.reserved.v1', carrier, () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    const consumer = exporter.getFinishedSpans().find((s) => s.name.startsWith('process'));
    expect(consumer?.status).toMatchObject({ code: 2, message: 'boom' });
  });

  it('makes no second span when one of the trace already continues it (kafkajs instrumentation)', () => {
    const carrier = inSpan('POST /order', () => currentTraceCarrier());
    const parent = runInStoredTrace(carrier, () => context.active());
    const kafkajsSpan = tracer.startSpan('process order.created.v1', {}, parent);
    const seen = context.with(trace.setSpan(parent, kafkajsSpan), () =>
      continueTraceOf('order.created.v1', carrier, () => activeSpanIds()),
    );
    kafkajsSpan.end();
    expect(seen?.spanId).toBe(kafkajsSpan.spanContext().spanId);
    expect(exporter.getFinishedSpans().filter((s) => s.name.startsWith('process'))).toHaveLength(1);
  });

  it('runs a message without a trace context as it is', () => {
    expect(continueTraceOf('order.created.v1', { 'x-correlation-id': 'a' }, () => 42)).toBe(42);
    expect(continueTraceOf('order.created.v1', { traceparent: 'garbage' }, () => 43)).toBe(43);
    expect(exporter.getFinishedSpans().filter((s) => s.name.startsWith('process'))).toEqual([]);
  });
});

describe('log lines inside a trace', () => {
  function captureStdout(run: () => void): string[] {
    const lines: string[] = [];
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      run();
    } finally {
      out.mockRestore();
    }
    return lines;
  }

  it('carry trace_id and span_id, in JSON and in text', () => {
    const json = new AppLogger('order-service', 'json', logLevelsUpTo('log'));
    const text = new AppLogger('consign', 'text', logLevelsUpTo('log'));
    const { ids, lines } = inSpan('POST /order', () => ({
      ids: activeSpanIds(),
      lines: captureStdout(() => {
        json.log('order created', 'OrderService');
        text.log({ msg: 'GET /x 200', status: 200 }, 'HttpAccess');
      }),
    }));
    expect(JSON.parse(lines[0])).toMatchObject({ trace_id: ids?.traceId, span_id: ids?.spanId });
    expect(lines[1]).toContain(`trace_id=${ids?.traceId} span_id=${ids?.spanId}`);
    expect(lines[1]).toContain('GET /x 200 status=200');
    expect(lines[1].trimEnd()).not.toContain('\n');
    const outside = captureStdout(() => json.log('idle', 'X'));
    expect(JSON.parse(outside[0])).not.toHaveProperty('trace_id');
  });
});
