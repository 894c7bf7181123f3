import 'reflect-metadata';
import fastify, { FastifyInstance } from 'fastify';
import {
  ApiKeyRole,
  CommonErrorCode,
  HoldOrderRequest,
  OrderTopic,
  PageQuery,
  failure,
  success,
} from '@consign/contracts';
import type { CommandBus } from '@consign/bus';
import { ApiError } from './api-error';
import { apiRoutes } from './api-routes.plugin';
import { GatewayBus } from './gateway-bus';
import { longIdParam } from './route-inputs';
import { RouteGroup, forward, route } from './route-table';

const handled: unknown[] = [];

/** What the forwarded routes sent: topic, payload and options. */
const sent: unknown[][] = [];
/** A bus that answers an order for order 7 and a not-found for any other. */
const bus = new GatewayBus({
  request: (topic: string, payload: { order_id: number }, options: unknown) => {
    sent.push([topic, payload, options]);
    return Promise.resolve(
      payload.order_id === 7
        ? success({ id: 7, status: 'Draft' })
        : failure(CommonErrorCode.NotFound, 'No such order.'),
    );
  },
} as unknown as CommandBus);

const testGroup: RouteGroup = {
  name: 'Test',
  tag: 'Test',
  prefix: '2025-07/test',
  routes: [
    route({
      name: 'hold',
      method: 'POST',
      path: ':item_id/hold',
      summary: 'Hold',
      idempotent: true,
      access: { roles: [ApiKeyRole.Operator] },
      params: { item_id: longIdParam('The item id.') },
      query: PageQuery,
      body: HoldOrderRequest,
      response: { data: Object, description: 'Held.' },
      handle: ({ params, query, body }) => {
        handled.push(body);
        return { id: params.item_id, page: query.page, reason: body.reason };
      },
    }),
    route({
      name: 'read',
      method: 'GET',
      path: ':item_id/:name',
      summary: 'Read',
      params: {
        item_id: longIdParam('The item id.'),
        name: { parse: (text) => text, description: 'A name.', schema: { type: 'string' } },
      },
      response: { data: Object, description: 'Read.' },
      handle: ({ params }) => params,
    }),
    forward({
      name: 'order',
      method: 'GET',
      path: 'orders/:order_id',
      summary: 'Order',
      params: { order_id: longIdParam('The order id.') },
      response: { data: Object, description: 'The order.' },
      topic: OrderTopic.Get,
      request: ({ params }) => ({ merchant_id: 3, order_id: params.order_id }),
      key: ({ params }) => params.order_id,
      reply: (order) => ({ ...order, seen: true }),
    }),
    // Idempotent because its command's definition is.
    forward({
      name: 'release',
      method: 'POST',
      path: 'orders/:order_id/release',
      summary: 'Release',
      params: { order_id: longIdParam('The order id.') },
      response: { data: Object, description: 'Released.' },
      topic: OrderTopic.Release,
      request: ({ params }) => ({ merchant_id: 3, order_id: params.order_id }),
    }),
    route({
      name: 'refuse',
      method: 'GET',
      path: 'refused',
      summary: 'Refuse',
      response: { data: Object, description: 'Never.' },
      handle: () => {
        throw new ApiError(409, 'Not now.', { 'retry-after': '1' });
      },
    }),
    route({
      name: 'document',
      method: 'GET',
      path: 'raw/:name',
      summary: 'Bytes',
      params: { name: { parse: (text) => text, description: 'A name.', schema: {} } },
      response: { raw: { description: 'ZPL', content: { 'application/zpl': { schema: {} } } } },
      // After an await, as a route asking the bus for a document does.
      handle: async ({ params }) => {
        await new Promise((done) => setImmediate(done));
        return {
          contentType: 'application/zpl',
          filename: `${params.name}.zpl`,
          bytes: Buffer.from('^XA^XZ'),
        };
      },
    }),
  ],
};

describe('apiRoutes, the route table as a Fastify plugin', () => {
  let app: FastifyInstance;
  const configs = new Map<string, unknown>();

  beforeAll(async () => {
    app = fastify({ bodyLimit: 64 });
    app.addHook('onRoute', (options) => {
      configs.set(`${String(options.method)} ${options.url}`, options.config);
    });
    await app.register(apiRoutes, { groups: [testGroup], bus });
    await app.ready();
  });

  afterAll(() => app.close());

  beforeEach(() => {
    handled.length = 0;
    sent.length = 0;
  });

  it('registers each route at its prefix with its access, idempotency and body in its config', () => {
    expect(configs.get('POST /2025-07/test/:item_id/hold')).toMatchObject({
      consignAccess: { roles: [ApiKeyRole.Operator] },
      consignIdempotent: true,
      consignTakesBody: true,
    });
    const read = configs.get('GET /2025-07/test/:item_id/:name') as Record<string, unknown>;
    expect(read).toMatchObject({ consignTakesBody: false });
    expect(read).not.toHaveProperty('consignAccess');
    expect(read).not.toHaveProperty('consignIdempotent');
    expect(configs.get('POST /2025-07/test/orders/:order_id/release')).toMatchObject({
      consignIdempotent: true,
    });
    expect(configs.get('GET /2025-07/test/orders/:order_id')).not.toHaveProperty(
      'consignIdempotent',
    );
  });

  it('hands the handler its validated path parameters, query and body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/test/21/hold?page=2',
      payload: { reason: 'stock check' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 21, page: 2, reason: 'stock check' });
  });

  it('answers an invalid path parameter, query or body with a 400 naming it, without running the handler', async () => {
    const cases = [
      ['/2025-07/test/abc/hold', { reason: 'x' }, 'item_id must be a positive integer id'],
      ['/2025-07/test/1/hold?page=0', { reason: 'x' }, 'page'],
      ['/2025-07/test/1/hold', { reason: 7 }, 'reason'],
    ] as const;
    for (const [url, payload, named] of cases) {
      const response = await app.inject({ method: 'POST', url, payload });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({ code: 400, data: null });
      expect(response.json().message).toContain(named);
    }
    expect(handled).toEqual([]);
  });

  it('checks the path parameters first, then the query, then the body', async () => {
    const wrong = { method: 'POST' as const, payload: { reason: 7 } };
    const path = await app.inject({ ...wrong, url: '/2025-07/test/abc/hold?page=0' });
    expect(path.json().message).toContain('item_id');
    const query = await app.inject({ ...wrong, url: '/2025-07/test/1/hold?page=0' });
    expect(query.json().message).toContain('page');
    expect(query.json().message).not.toContain('reason');
  });

  it("sends a forwarded route's command with its key and correlation id, and answers the reply as the route makes it", async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/2025-07/test/orders/7',
      headers: { 'x-correlation-id': 'corr-7' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 7, status: 'Draft', seen: true });
    expect(sent).toEqual([
      [
        OrderTopic.Get,
        { merchant_id: 3, order_id: 7 },
        { key: '7', correlationId: 'corr-7', command: undefined },
      ],
    ]);
  });

  it("answers a forwarded command's failure in the envelope", async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test/orders/8' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 404, message: 'No such order.', data: null });
  });

  it("answers a handler's ApiError in the envelope, with its headers", async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test/refused' });
    expect(response.statusCode).toBe(409);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({ code: 409, message: 'Not now.', data: null });
  });

  it("answers Fastify's own errors in the envelope with Consign's wording", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/test/1/hold',
      payload: { reason: 'x'.repeat(100) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ code: 413, message: 'Request body too large.', data: null });
  });

  it('answers a raw response with its bytes and content type', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test/raw/label' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zpl');
    expect(response.headers['content-disposition']).toBe('inline; filename="label.zpl"');
    expect(response.body).toBe('^XA^XZ');
  });

  it('matches no route with an empty path parameter', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test//x' });
    expect(response.statusCode).toBe(404);
  });

  it('hands every path parameter, each parsed by its definition', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test/7/x' });
    expect(response.json()).toEqual({ item_id: 7, name: 'x' });
  });
});
