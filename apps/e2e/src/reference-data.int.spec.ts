import { rmSync } from 'node:fs';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { CatalogModule } from '@consign/catalog';
import { BootstrapKeyService, GatewayModule, applyHttpRules } from '@consign/gateway';
import { InboundModule } from '@consign/inbound';
import { OrderModule } from '@consign/order';
import { IN_PROCESS_BROKER, InProcessBroker } from '@consign/bus';
import { PlatformModule, busServerOptions } from '@consign/platform';
import { loadConfig } from '@consign/config';
import { RatingModule } from '@consign/rating';
import {
  aProduct,
  anInbound,
  anOrder,
  newApiKey,
  tempDir,
  TestDatabase,
  createTestDatabase,
} from '@consign/testing';

/**
 * The reference-data checks of order-service and inbound-service, in one process: the real
 * gateway and services on the in-process bus, with rating-service and without it (down).
 */
async function startInProcess(withRating: boolean) {
  const database: TestDatabase = await createTestDatabase();
  const dataDir = tempDir('reference');
  const apiKey = newApiKey();
  // The gateway's own settings (GatewayConfig) are read from the process's environment.
  process.env.BOOTSTRAP_API_KEY = apiKey;
  const config = loadConfig({
    DATA_DIR: dataDir,
    BUS_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'error',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });

  @Module({
    imports: [
      PlatformModule.forRoot({ config, appName: 'reference-test', requestsReplies: true }),
      GatewayModule,
      CatalogModule,
      OrderModule,
      InboundModule,
      ...(withRating ? [RatingModule] : []),
    ],
  })
  class InProcessModule {}

  // Not createHttpApp: its API docs page needs @fastify/static, an ES module jest cannot load.
  const app = await NestFactory.create<NestFastifyApplication>(
    InProcessModule,
    new FastifyAdapter(),
    { logger: ['error'], bodyParser: false },
  );
  await applyHttpRules(app);
  const broker = app.get<InProcessBroker | null>(IN_PROCESS_BROKER);
  app.connectMicroservice(busServerOptions(config, 'reference-test', broker));
  await app.startAllMicroservices();
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await app.get(BootstrapKeyService).ensureFirstMerchant();
  const send = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${apiKey}` },
      ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.json() as { code: number; message: string; data: unknown },
    };
  };
  return {
    send,
    async stop() {
      delete process.env.BOOTSTRAP_API_KEY;
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('reference data (rating-service) checks, in process', () => {
  describe('with rating-service answering', () => {
    let app: Awaited<ReturnType<typeof startInProcess>>;
    let sku: string;

    beforeAll(async () => {
      app = await startInProcess(true);
      const product = aProduct();
      sku = (product.variants as { sku: string }[])[0].sku;
      expect((await app.send('POST', '/2025-07/cloud/product', product)).status).toBe(200);
    });

    afterAll(() => app?.stop());

    it('accepts known warehouse, service and inco term codes', async () => {
      const order = await app.send(
        'POST',
        '/2025-07/cloud/order',
        anOrder([{ sku_number: sku, quantity: 1 }]),
      );
      expect(order.status).toBe(200);
      const inbound = await app.send(
        'POST',
        '/2025-07/cloud/inbound',
        anInbound([{ sku_number: sku, quantity: 1 }]),
      );
      expect(inbound.status).toBe(200);
    });

    it('refuses unknown codes with a 400 naming each field', async () => {
      const order = await app.send(
        'POST',
        '/2025-07/cloud/order',
        anOrder([{ sku_number: sku, quantity: 1 }], {
          service: {
            warehouse_code: 'WH-XX-NOWHERE',
            service_code: 'DPD-CLASSIC',
            inco_term: 'DDP',
          },
        }),
      );
      expect(order.body).toEqual({
        code: 400,
        message:
          'Validation failed: service.warehouse_code WH-XX-NOWHERE is not a warehouse you can use (known: WH-NJ-01, WH-CA-01, WH-DE-01, WH-GB-01); service.inco_term DDP is not offered by DPD-CLASSIC (offers: DAP)',
        data: null,
      });
      const service = await app.send(
        'POST',
        '/2025-07/cloud/order',
        anOrder([{ sku_number: sku, quantity: 1 }], { service: { service_code: 'Pigeon-Post' } }),
      );
      expect(service.status).toBe(400);
      expect(service.body.message).toContain(
        'service.service_code Pigeon-Post is not a known carrier service',
      );
      const inbound = await app.send(
        'POST',
        '/2025-07/cloud/inbound',
        anInbound([{ sku_number: sku, quantity: 1 }], { warehouse_code: 'WH-XX-NOWHERE' }),
      );
      expect(inbound.status).toBe(400);
      expect(inbound.body.message).toContain(
        'warehouse_code WH-XX-NOWHERE is not a warehouse you can use',
      );
      expect((await app.send('GET', '/2025-07/cloud/order')).body.data).toMatchObject({ total: 1 });
    });
  });

  describe('without rating-service', () => {
    let app: Awaited<ReturnType<typeof startInProcess>>;

    beforeAll(async () => {
      app = await startInProcess(false);
    });

    afterAll(() => app?.stop());

    it('answers 503 with Retry-After instead of accepting codes unchecked', async () => {
      const order = await app.send(
        'POST',
        '/2025-07/cloud/order',
        anOrder([{ sku_number: '1', quantity: 1 }]),
      );
      expect(order.status).toBe(503);
      expect(order.headers['retry-after']).toBe('5');
      expect(order.body).toMatchObject({ code: 503, data: null });
      expect(order.body.message).toContain('rating service');
      const inbound = await app.send(
        'POST',
        '/2025-07/cloud/inbound',
        anInbound([{ sku_number: '1', quantity: 1 }]),
      );
      expect(inbound.status).toBe(503);
      expect((await app.send('GET', '/2025-07/cloud/order')).body.data).toMatchObject({ total: 0 });
    });

    it('still takes an order that names no warehouse or service', async () => {
      const { shipping_address } = anOrder([]);
      const order = await app.send('POST', '/2025-07/cloud/order', {
        shipping_address,
        sku_items: [{ sku_number: '1', quantity: 1, price: 1 }],
      });
      expect(order.status).toBe(200);
    });
  });
});
