import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  Deployment,
  REPO_ROOT,
  aProduct,
  aVariant,
  anInbound,
  anOrder,
  eventually,
  startDistributed,
  startStandalone,
} from '@consign/testing';

interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: { name: string; traceId: string; spanId: string; parentSpanId?: string }[];
    }[];
  }[];
}

/** A stand-in OpenTelemetry collector: receives OTLP/HTTP JSON at /v1/traces. */
async function startCollector(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const traces = JSON.parse(body) as OtlpTraces;
        for (const resource of traces.resourceSpans ?? []) {
          const service =
            resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value
              .stringValue ?? '';
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                service,
                scope: scope.scope?.name ?? '',
                name: span.name,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
              });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, server };
}

/** Whether loading an app's tracing preload loaded any OpenTelemetry module, in a fresh process. */
function sdkLoadedBy(app: string, env: Record<string, string>): boolean {
  const preload = join(REPO_ROOT, 'dist', 'apps', app, 'src', 'tracing.js');
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_')),
  );
  const output = execFileSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(preload)});
       const loaded = Object.keys(require.cache).some((p) => p.includes('/@opentelemetry/'));
       process.stdout.write(String(loaded));
       process.exit(0);`,
    ],
    { env: { ...clean, NODE_OPTIONS: '', ...env }, encoding: 'utf8' },
  );
  return output.trim() === 'true';
}

/**
 * Stocks a new variant, then creates an order for it with a W3C `traceparent` the test chose (as
 * a traced client or an upstream proxy would send), and waits for the stock saga to approve it:
 * POST → order-service writes order.created.v1 to its outbox → catalog reserves the stock and
 * writes stock.reserved.v1 → order-service approves. Returns the trace id the order ran in.
 */
async function orderApprovedInATrace(deployment: Deployment): Promise<string> {
  const api = deployment.client;
  const operator = await deployment.createOperatorKey();
  const productId = (
    await api.post<number>('/2025-07/cloud/product', aProduct({ variants: [aVariant()] }))
  ).body.data;
  const product = await api.get<{ variants: { sku: string }[] }>(
    `/2025-07/cloud/product/${productId}`,
  );
  const sku = product.body.data?.variants[0].sku ?? '';
  const inboundId = (
    await api.post<number>('/2025-07/cloud/inbound', anInbound([{ sku_number: sku, quantity: 5 }]))
  ).body.data;
  expect(
    (
      await operator.post(`/2025-07/cloud/inbound/${inboundId}/receipt`, {
        items: [{ sku_number: sku, quantity: 5 }],
      })
    ).status,
  ).toBe(200);
  await eventually(
    async () =>
      (await api.get<{ list: { on_hand: number }[] }>(`/2025-07/cloud/inventory?sku=${sku}`)).body
        .data?.list[0]?.on_hand,
    (onHand) => onHand === 5,
  );

  const traceId = randomBytes(16).toString('hex');
  const created = await api.request<number>(
    'POST',
    '/2025-07/cloud/order',
    JSON.stringify(anOrder([{ sku_number: sku, quantity: 2 }])),
    { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
  );
  expect(created.status).toBe(200);
  await eventually(
    async () =>
      (await api.get<{ status: string }>(`/2025-07/cloud/order/${created.body.data}`)).body.data
        ?.status,
    (status) => status === 'Approved',
  );
  return traceId;
}

/** Waits until the spans of `traceId` show the whole order: request, reservation, approval. */
async function spansOfTheOrder(
  collector: { spans: ReceivedSpan[] },
  traceId: string,
  services: { gateway: string; order: string; catalog: string },
): Promise<ReceivedSpan[]> {
  const reservation = (s: ReceivedSpan) =>
    s.service === services.catalog && s.name === 'process order.created.v1';
  const approval = (s: ReceivedSpan) =>
    s.service === services.order && s.name === 'process stock.reserved.v1';
  const spans = await eventually(
    async () => collector.spans.filter((s) => s.traceId === traceId),
    (trace) =>
      trace.some(reservation) &&
      trace.some(approval) &&
      // the approval's UPDATE, inside the consumer span of stock.reserved.v1
      trace.some(
        (q) =>
          q.scope.includes('instrumentation-pg') &&
          trace.some((a) => approval(a) && q.parentSpanId === a.spanId),
      ),
    { timeoutMs: 20_000 },
  );
  // The HTTP request it started from, seen by the HTTP server and by Fastify's instrumentation.
  expect(spans).toContainEqual(
    expect.objectContaining({
      service: services.gateway,
      scope: expect.stringContaining('instrumentation-http'),
      name: expect.stringMatching(/^POST/),
    }),
  );
  expect(spans).toContainEqual(
    expect.objectContaining({ service: services.gateway, scope: '@fastify/otel' }),
  );
  // The catalog's reservation queries run in its consumer span.
  const reserving = spans.find(reservation);
  expect(
    spans.some(
      (q) => q.scope.includes('instrumentation-pg') && q.parentSpanId === reserving?.spanId,
    ),
  ).toBe(true);
  return spans;
}

describe('OpenTelemetry tracing', () => {
  it('loads nothing unless configured', () => {
    expect(sdkLoadedBy('order-service', {})).toBe(false);
    expect(sdkLoadedBy('order-service', { OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(
      sdkLoadedBy('order-service', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }),
    ).toBe(true);
  });

  describe('when OTEL_EXPORTER_OTLP_ENDPOINT is set (standalone)', () => {
    let collector: Awaited<ReturnType<typeof startCollector>>;
    let deployment: Deployment;

    beforeAll(async () => {
      collector = await startCollector();
      deployment = await startStandalone({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
      });
    });

    afterAll(async () => {
      await deployment?.stop();
      await new Promise((resolve) => collector?.server.close(resolve));
    });

    it('exports spans of the HTTP request and the PostgreSQL queries it caused, in one trace', async () => {
      const response = await deployment.client.get('/2025-07/cloud/order?page=1&size=5');
      expect(response.status).toBe(200);
      const spans = await eventually(
        async () => [...collector.spans],
        (received) =>
          received.some((s) => s.scope.includes('instrumentation-http')) &&
          received.some((s) => s.scope.includes('instrumentation-pg')),
        { timeoutMs: 15_000 },
      );
      expect(spans.every((s) => s.service === 'consign')).toBe(true);
      const request = spans.find(
        (s) => s.scope.includes('instrumentation-http') && s.name.startsWith('GET'),
      );
      expect(request).toBeDefined();
      const queries = spans.filter(
        (s) => s.scope.includes('instrumentation-pg') && s.traceId === request?.traceId,
      );
      expect(queries.length).toBeGreaterThan(0);
    });

    it('follows an order in one trace: request, outbox, stock reservation, approval', async () => {
      const traceId = await orderApprovedInATrace(deployment);
      const spans = await spansOfTheOrder(collector, traceId, {
        gateway: 'consign',
        order: 'consign',
        catalog: 'consign',
      });
      // Continued from the outbox over the in-process bus: the consumer spans are ours.
      expect(spans.find((s) => s.name === 'process order.created.v1')?.scope).toBe(
        '@consign/platform',
      );
    });
  });

  describe('when OTEL_EXPORTER_OTLP_ENDPOINT is set (distributed)', () => {
    let collector: Awaited<ReturnType<typeof startCollector>>;
    let deployment: Deployment;

    beforeAll(async () => {
      collector = await startCollector();
      deployment = await startDistributed({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
      });
    }, 120_000);

    afterAll(async () => {
      await deployment?.stop();
      await new Promise((resolve) => collector?.server.close(resolve));
    });

    it('follows a request from the gateway through Kafka into the service and its queries', async () => {
      const response = await deployment.client.get('/2025-07/cloud/order?page=1&size=5');
      expect(response.status).toBe(200);
      const request = await eventually(
        async () =>
          collector.spans.find(
            (s) =>
              s.service === 'api-gateway' &&
              s.scope.includes('instrumentation-http') &&
              s.name.startsWith('GET'),
          ),
        (found) => found !== undefined,
        { timeoutMs: 20_000 },
      );
      // The gateway's produce, the service's consume and the service's query, in one trace.
      const sameTrace = await eventually(
        async () => collector.spans.filter((s) => s.traceId === request?.traceId),
        (spans) =>
          spans.some((s) => s.service === 'order-service' && s.scope.includes('kafkajs')) &&
          spans.some((s) => s.service === 'order-service' && s.scope.includes('pg')),
        { timeoutMs: 20_000 },
      );
      expect(sameTrace).toContainEqual(
        expect.objectContaining({
          service: 'api-gateway',
          scope: expect.stringContaining('kafkajs'),
        }),
      );
    });

    it('follows an order in one trace across processes: gateway, order, catalog, order', async () => {
      const traceId = await orderApprovedInATrace(deployment);
      const spans = await spansOfTheOrder(collector, traceId, {
        gateway: 'api-gateway',
        order: 'order-service',
        catalog: 'catalog-service',
      });
      // The relay published each event in its trace: order-service's and catalog's producer spans.
      expect(spans).toContainEqual(
        expect.objectContaining({ service: 'order-service', name: 'send order.created.v1' }),
      );
      expect(spans).toContainEqual(
        expect.objectContaining({ service: 'catalog-service', name: 'send stock.reserved.v1' }),
      );
    });
  });
});
