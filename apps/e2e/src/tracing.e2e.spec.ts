import { execFileSync } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  Deployment,
  REPO_ROOT,
  eventually,
  startDistributed,
  startStandalone,
} from '@consign/testing';

interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  traceId: string;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { scope?: { name?: string }; spans?: { name: string; traceId: string }[] }[];
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
  });
});
