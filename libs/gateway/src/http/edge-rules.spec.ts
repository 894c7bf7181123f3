import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { HoldOrderRequest } from '@consign/contracts';
import { ApiExceptionFilter } from './api-exception.filter';
import { apiRoutes } from './api-routes.plugin';
import type { GatewayBus } from './gateway-bus';
import { longIdParam } from './route-inputs';
import { EDGE_FASTIFY_OPTIONS, MAX_PATH_PARAM_LENGTH, parseJsonBodies } from './edge-rules';
import { RouteGroup, route } from './route-table';

const received: unknown[] = [];

const id = { id: longIdParam('The id.') };

const edgeRoutes: RouteGroup = {
  name: 'Edge',
  tag: 'Edge',
  prefix: '2025-07/edge',
  routes: [
    route({
      name: 'read',
      method: 'GET',
      path: ':id',
      summary: 'Read',
      params: id,
      response: { data: Object, description: 'Read.' },
      handle: ({ params }) => ({ id: params.id }),
    }),
    route({
      name: 'hold',
      method: 'POST',
      path: ':id/hold',
      summary: 'Hold',
      params: id,
      body: HoldOrderRequest,
      response: { data: Object, description: 'Held.' },
      handle: ({ params, body }) => {
        received.push(body);
        return { id: params.id, body };
      },
    }),
    route({
      name: 'cancel',
      method: 'POST',
      path: ':id/cancel',
      summary: 'Cancel',
      params: id,
      response: { data: Object, description: 'Cancelled.' },
      handle: ({ params }) => ({ id: params.id }),
    }),
    route({
      name: 'replace',
      method: 'PUT',
      path: ':id',
      summary: 'Replace',
      params: id,
      body: HoldOrderRequest,
      response: { data: Object, description: 'Replaced.' },
      handle: ({ params, body }) => {
        received.push(body);
        return { id: params.id };
      },
    }),
  ],
};

@Module({ providers: [{ provide: APP_FILTER, useClass: ApiExceptionFilter }] })
class EdgeModule {}

describe('edge rules', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(
      EdgeModule,
      new FastifyAdapter({ ...EDGE_FASTIFY_OPTIONS }),
      { logger: false, bodyParser: false },
    );
    parseJsonBodies(app);
    // The edge routes answer by themselves: nothing goes to the bus.
    await app.register(apiRoutes, { groups: [edgeRoutes], bus: {} as GatewayBus });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  beforeEach(() => {
    received.length = 0;
  });

  const json = { 'content-type': 'application/json' };

  it.each(['%', '%zz', '%C0%80', '%E0%A4%A'])(
    'answers a malformed path (%s) with 400 in the envelope',
    async (segment) => {
      const response = await app.inject({ method: 'GET', url: `/2025-07/edge/${segment}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({
        code: 400,
        message: 'Malformed URL: the path is not valid percent-encoding.',
        data: null,
      });
    },
  );

  it('answers an over-long path parameter with 414 in the envelope', async () => {
    const response = await app.inject({ method: 'GET', url: `/2025-07/edge/${'1'.repeat(400)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toMatchObject({ code: 414, data: null });
    const atLimit = await app.inject({
      method: 'GET',
      url: `/2025-07/edge/${'1'.repeat(MAX_PATH_PARAM_LENGTH)}`,
    });
    expect(atLimit.json()).toMatchObject({ code: 400, message: expect.stringContaining('id') });
  });

  it('answers a known path with a wrong method with 405 and Allow, in the envelope', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/2025-07/edge/1' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, PUT');
    expect(response.json()).toEqual({
      code: 405,
      message: 'Method DELETE is not allowed here; this path answers to GET, HEAD, PUT.',
      data: null,
    });
    const post = await app.inject({ method: 'GET', url: '/2025-07/edge/1/hold' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('POST');
  });

  it('answers a wrong method with 405 whatever its body: empty or malformed JSON is not parsed', async () => {
    // What fetch sends for DELETE with a JSON content type and no body (found through Prism).
    const json = { 'content-type': 'application/json' };
    for (const payload of ['', '{not json', '{"a":"\\u0000"}']) {
      const response = await app.inject({
        method: 'DELETE',
        url: '/2025-07/edge/1',
        headers: json,
        payload,
      });
      expect([response.statusCode, response.headers.allow]).toEqual([405, 'GET, HEAD, PUT']);
    }
    const unknown = await app.inject({ method: 'POST', url: '/2025-07/nowhere', headers: json });
    expect(unknown.json()).toMatchObject({ code: 404, data: null });
  });

  it('answers what the HTTP parser refuses (a URL over 16 KB) with 431 in the envelope', async () => {
    await app.listen(0, '127.0.0.1');
    const response = await fetch(`${await app.getUrl()}/2025-07/edge/1?q=${'x'.repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(await response.json()).toMatchObject({ code: 431, data: null });
  });

  it('answers a path whose last parameter is empty with 404, not a 405 naming HEAD', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/edge/' });
    expect(response.statusCode).toBe(404);
    expect(response.headers.allow).toBeUndefined();
    expect(response.json()).toMatchObject({ code: 404, data: null });
  });

  it('still answers an unknown path with 404', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/2025-07/nowhere/1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers.allow).toBeUndefined();
  });

  it('reads an empty JSON body as {} on an operation without a body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/edge/3/cancel',
      headers: json,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 3 });
  });

  it('refuses an empty JSON body on an operation with one', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/edge/3/hold',
      headers: json,
    });
    expect(response.json()).toEqual({
      code: 400,
      message: 'Request body is empty: send a JSON object.',
      data: null,
    });
  });

  it('refuses malformed JSON with 400', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: '/2025-07/edge/3',
      headers: json,
      payload: '{"a":',
    });
    expect(response.json()).toEqual({
      code: 400,
      message: 'Malformed JSON in request body.',
      data: null,
    });
  });

  it.each<[string, string, string]>([
    ['NUL', '{"reason":"a\\u0000b"}', 'reason must not contain NUL characters'],
    [
      'a lone surrogate',
      '{"reason":"\\ud800"}',
      'reason must not contain unpaired UTF-16 surrogates',
    ],
    ['__proto__', '{"__proto__":{"polluted":true}}', '__proto__ is not allowed: a reserved name'],
    [
      'constructor',
      '{"constructor":{"prototype":{}}}',
      'constructor is not allowed: a reserved name',
    ],
    [
      '10,000-deep JSON',
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      'is nested deeper than 16 levels',
    ],
    [
      '10,000 empty arrays',
      JSON.stringify({ x: new Array(10_000).fill([]) }),
      'x must contain no more than 1000 elements',
    ],
  ])(
    'stops %s in any body before its contract is checked or any handler runs',
    async (_what, payload, message) => {
      for (const url of ['/2025-07/edge/3', '/2025-07/edge/3/hold']) {
        const response = await app.inject({
          method: url.endsWith('hold') ? 'POST' : 'PUT',
          url,
          headers: json,
          payload,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 400, data: null });
        expect(response.json().message).toContain(message);
      }
      expect(received).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('passes a clean body on', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/edge/3/hold',
      headers: json,
      payload: { reason: 'Zoë 👍 waits' },
    });
    expect(response.statusCode).toBe(200);
    expect(received).toEqual([{ reason: 'Zoë 👍 waits' }]);
  });
});
