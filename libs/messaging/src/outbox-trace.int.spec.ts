import { CatalogEvent, ProductCreatedEvent } from '@consign/contracts';
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { DataSource } from 'typeorm';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { activeSpanIds } from '@consign/observability';
import { Outbox } from './outbox';
import { MessagingSchema, openMessagingSchema } from '@consign/testing';

const SCHEMA = 'outbox_trace_test';
const payload: ProductCreatedEvent = { product_id: 1, variants: [{ id: 2, sku: 'A' }] };

// What @consign/tracing registers when tracing is on (no exporter needed: ids are enough).
const provider = new NodeTracerProvider();
provider.register();
const tracer = trace.getTracer('test');

function inSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, (span) => work().finally(() => span.end()));
}

describe('the trace context of an outbox event', () => {
  let schema: MessagingSchema;
  let dataSource: DataSource;

  beforeAll(async () => {
    schema = await openMessagingSchema('outbox-trace-test', SCHEMA);
    dataSource = schema.dataSource;
  });

  afterAll(async () => {
    await schema.close();
    await provider.shutdown();
  });

  it('is stored with the event, published as headers, and the publish runs in that trace', async () => {
    const broker = new InProcessBroker();
    const outbox = new Outbox(dataSource, new InProcessClient(broker), SCHEMA);
    const seen: { headers: Record<string, string>; traceId?: string }[] = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (_data, headers) => {
      seen.push({ headers: { ...headers }, traceId: activeSpanIds()?.traceId });
    });

    const request = await inSpan('POST /product', async () => {
      await dataSource.transaction(async (manager) => {
        await outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId: 3,
          aggregateId: 1,
          payload,
        });
        await outbox.addMany(manager, CatalogEvent.ProductCreated, [
          { merchantId: 3, aggregateId: 2, payload },
        ]);
      });
      return activeSpanIds();
    });
    // Outside any trace: stored without one.
    await dataSource.transaction((manager) =>
      outbox.add(manager, CatalogEvent.ProductCreated, { merchantId: 3, aggregateId: 3, payload }),
    );
    const traceparent = `00-${request?.traceId}-${request?.spanId}-01`;
    const rows: { trace_context: unknown }[] = await dataSource.query(
      `SELECT trace_context FROM "${SCHEMA}"."outbox_event" ORDER BY id`,
    );
    expect(rows).toEqual([
      { trace_context: { traceparent } },
      { trace_context: { traceparent } },
      { trace_context: null },
    ]);

    // The relay publishes from inside an unrelated trace: each event still goes out in its own.
    await inSpan('another request', () => outbox.flush());
    expect(seen).toEqual([
      { headers: { traceparent }, traceId: request?.traceId },
      { headers: { traceparent }, traceId: request?.traceId },
      { headers: {}, traceId: undefined },
    ]);
  });
});
