import { Logger } from '@nestjs/common';
import Fastify, { FastifyInstance } from 'fastify';
import { noteRequestMerchant } from './access-log';
import { AppLogger, logLevelsUpTo } from './app-logger';
import { instrumentHttp } from './http-observability';
import { metrics } from './metrics';

const API_KEY = 'ck_live_secret_key_0123456789';

describe('access log', () => {
  let app: FastifyInstance;
  const lines: Record<string, unknown>[] = [];
  let out: jest.SpyInstance;

  beforeAll(async () => {
    Logger.overrideLogger(new AppLogger('api-gateway', 'json', logLevelsUpTo('log')));
    app = Fastify();
    instrumentHttp(app, metrics());
    // What the gateway's authentication does once it knows the key's merchant.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.headers.authorization === `Bearer ${API_KEY}`) noteRequestMerchant(request, 42);
      done();
    });
    app.get('/2025-07/cloud/order/:order_id', async (request, reply) =>
      reply.code(404).send({ code: 404, message: 'Order not found.', data: null }),
    );
    app.get('/health/live', async () => ({ status: 'ok' }));
    await app.ready();
    out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      for (const line of String(chunk).split('\n'))
        if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    });
  });

  afterAll(async () => {
    out.mockRestore();
    Logger.overrideLogger(false);
    await app.close();
  });

  beforeEach(() => {
    lines.length = 0;
  });

  const accessLines = () => lines.filter((l) => l.context === 'HttpAccess');

  it('writes one line per request: method, route pattern, status, duration, merchant, correlation id', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/2025-07/cloud/order/999999?api_key=leaked',
      headers: { authorization: `Bearer ${API_KEY}`, 'x-correlation-id': 'abc-123' },
    });
    expect(response.statusCode).toBe(404);
    expect(accessLines()).toEqual([
      {
        time: expect.any(String),
        level: 'log',
        app: 'api-gateway',
        context: 'HttpAccess',
        msg: expect.stringMatching(/^GET \/2025-07\/cloud\/order\/:order_id 404 [\d.]+ms$/),
        method: 'GET',
        route: '/2025-07/cloud/order/:order_id',
        status: 404,
        duration_ms: expect.any(Number),
        merchant_id: 42,
        correlation_id: 'abc-123',
      },
    ]);
    // Never the key, the Authorization header nor the raw URL.
    const written = JSON.stringify(lines);
    expect(written).not.toContain(API_KEY);
    expect(written).not.toContain('999999');
    expect(written).not.toMatch(/authorization/i);
  });

  it('names unmatched URLs as one route, and leaves out probes', async () => {
    await app.inject({ method: 'GET', url: '/no/such/thing' });
    await app.inject({ method: 'GET', url: '/health/live' });
    await app.inject({ method: 'GET', url: '/metrics' });
    expect(accessLines()).toEqual([
      expect.objectContaining({ method: 'GET', route: 'unmatched', status: 404 }),
    ]);
    expect(accessLines()[0]).not.toHaveProperty('merchant_id');
    expect(accessLines()[0].correlation_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
