import {
  Deployment,
  anOrder,
  eventually,
  startDistributed,
  startStandalone,
} from '@consign/testing';

interface Order {
  id: number;
  status: string;
}

/** The JSON log lines of one process of a distributed deployment's output. */
function jsonLinesOf(logs: string, app: string): Record<string, unknown>[] {
  const section = logs.split(/^--- /m).find((s) => s.startsWith(`${app}\n`)) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function scrape(baseUrl: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${baseUrl}/metrics`);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

describe('metrics and correlation ids (standalone)', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startStandalone({ env: { RATE_LIMIT_MAX: '5' } });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('echoes a sane x-correlation-id and replaces anything else', async () => {
    const api = deployment.client;
    const given = await api.request('GET', '/2025-07/cloud/warehouse', undefined, {
      'x-correlation-id': 'abc-123',
    });
    expect(given.headers.get('x-correlation-id')).toBe('abc-123');
    const injected = await api.request('GET', '/2025-07/cloud/warehouse', undefined, {
      'x-correlation-id': 'a b"c',
    });
    expect(injected.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves Prometheus text at /metrics without an API key, envelope or rate limit', async () => {
    const api = deployment.client;
    expect((await api.get('/2025-07/cloud/order/999999')).status).toBe(404);
    expect((await api.get('/2025-07/cloud/order/999998')).status).toBe(404);
    expect((await api.get('/no/such/route')).status).toBe(404);
    // The limit is 5 per window: the API is throttled by now, /metrics is not.
    for (let i = 0; i < 3; i++) await api.get('/2025-07/cloud/warehouse');
    expect((await api.get('/2025-07/cloud/warehouse')).status).toBe(429);

    const { status, type, text } = await scrape(api.baseUrl);
    for (let i = 0; i < 3; i++) expect((await scrape(api.baseUrl)).status).toBe(200);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text.startsWith('# HELP ')).toBe(true);
    // Route patterns, not raw URLs: both order ids are one series.
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/2025-07\/cloud\/order\/:order_id",status_class="4xx"\} 2$/m,
    );
    expect(text).not.toContain('/order/999999');
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/2025-07\/cloud\/warehouse",status_class="2xx"\} \d+$/m,
    );
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="unmatched",status_class="4xx"\} 1$/m,
    );
    expect(text).toMatch(
      /^bus_request_duration_seconds_count\{topic="order\.get\.v1",outcome="failure"\} 2$/m,
    );
    expect(text).toMatch(/^outbox_backlog\{service="orders"\} \d+$/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).not.toMatch(/^kafka_consumer_lag\{/m);
  });
});

describe('correlation ids across processes (distributed)', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDistributed({ env: { LOG_LEVEL: 'debug' } });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('carries x-correlation-id through the bus, the outbox and the event handlers’ log lines', async () => {
    const api = deployment.client;
    const created = await api.request(
      'POST',
      '/2025-07/cloud/order',
      JSON.stringify(anOrder([{ sku_number: 'NO-SUCH-SKU', quantity: 1 }])),
      { 'x-correlation-id': 'abc-123' },
    );
    expect(created.headers.get('x-correlation-id')).toBe('abc-123');
    const orderId = (created.body.data as number | null) ?? 0;
    expect(created.status).toBe(200);
    // order.created → catalog's stock handler → stock.reservation-failed → order's handler.
    await eventually(
      async () => (await api.get<Order>(`/2025-07/cloud/order/${orderId}`)).body.data?.status,
      (status) => status === 'OnHold',
    );
    const tagged = (app: string) =>
      eventually(
        async () =>
          jsonLinesOf(deployment.logs(), app).filter((l) => l.correlation_id === 'abc-123'),
        (lines) => lines.some((l) => String(l.msg).includes('handled')),
        { timeoutMs: 5_000 },
      );
    const orderLines = await tagged('order-service');
    const catalogLines = await tagged('catalog-service');
    // The command the gateway sent, and the event that came back from catalog.
    expect(orderLines).toContainEqual(
      expect.objectContaining({ app: 'order-service', msg: 'handling order.create.v1' }),
    );
    expect(orderLines).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(/stock\.reservation_failed\.v1 handled$/),
      }),
    );
    expect(catalogLines).toContainEqual(
      expect.objectContaining({
        app: 'catalog-service',
        msg: expect.stringMatching(/order\.created\.v1 handled$/),
      }),
    );
    for (const line of [...orderLines, ...catalogLines])
      expect(line).toMatchObject({
        time: expect.stringMatching(/Z$/),
        level: expect.any(String),
        context: expect.any(String),
      });
  });

  it('serves the gateway’s /metrics, leaving out the lag the test broker will not report', async () => {
    // Mokapi refuses OffsetFetch from a client outside the group ("the coordinator is not aware
    // of this member"), so kafka_consumer_lag cannot be read here; real Kafka answers it (the
    // computation is unit-tested in consumer-lag.spec.ts). A broker that does not answer must
    // not break the scrape.
    const started = Date.now();
    const { status, text } = await scrape(deployment.client.baseUrl);
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text).toMatch(/^# TYPE kafka_consumer_lag gauge$/m);
    expect(text).not.toMatch(/^kafka_consumer_lag\{/m);
    expect(text).toMatch(
      /^bus_request_duration_seconds_count\{topic="order\.create\.v1",outcome="ok"\} 1$/m,
    );
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/2025-07\/cloud\/order",status_class="2xx"\} 1$/m,
    );
  });
});
