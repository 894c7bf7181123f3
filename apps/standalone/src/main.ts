import './tracing';
import { Logger, Module } from '@nestjs/common';
import { CarrierSandboxConfig, CarrierSandboxModule } from '@consign/carrier-sandbox';
import { CatalogModule } from '@consign/catalog';
import { LabelTrackingModule } from '@consign/label-tracking';
import { RatingModule } from '@consign/rating';
import { BootstrapKeyService, GatewayModule, createHttpApp } from '@consign/gateway';
import { InboundModule } from '@consign/inbound';
import { OrderModule } from '@consign/order';
import { WebhookModule } from '@consign/webhook';
import { IN_PROCESS_BROKER, InProcessBroker } from '@consign/bus';
import {
  PlatformModule,
  busServerOptions,
  claimEmbeddedDatabase,
  runBeforeExit,
  runMain,
  exitCleanlyOnSignals,
  healthModule,
} from '@consign/platform';
import { loadConfig, loadConfigOf } from '@consign/config';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

/**
 * Consign in one process: the gateway and every service on the in-process bus and the embedded
 * database under DATA_DIR (or DATABASE_URL). `npm start` runs this.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const sandbox = loadConfigOf(CarrierSandboxConfig);
  // A second process on a live embedded folder stops here, with a message, having written nothing.
  claimEmbeddedDatabase(config, 'consign (standalone)');

  @Module({
    imports: [
      PlatformModule.forRoot({ config, appName: 'consign-standalone', requestsReplies: true }),
      await healthModule(),
      GatewayModule,
      CatalogModule,
      RatingModule,
      OrderModule,
      InboundModule,
      LabelTrackingModule,
      WebhookModule,
      // The project's own carrier: on unless CARRIER_SANDBOX=off (real carriers report instead).
      ...(sandbox.enabled ? [CarrierSandboxModule] : []),
    ],
  })
  class StandaloneModule {}

  // Text logs unless LOG_FORMAT=json: whoever runs `npm start` reads the console.
  const app = await createHttpApp(StandaloneModule, config, {
    appName: 'consign',
    logFormat: 'text',
  });
  const broker = app.get<InProcessBroker | null>(IN_PROCESS_BROKER);
  app.connectMicroservice(busServerOptions(config, 'consign-standalone', broker));
  await app.startAllMicroservices();
  const bootstrap = await app.get(BootstrapKeyService).ensureFirstMerchant();
  const admin = await app.get(BootstrapKeyService).ensureAdminKey();
  await app.listen(config.PORT, config.HOST);
  exitCleanlyOnSignals(app, 'consign');

  const url = (await app.getUrl())
    .replace('[::1]', 'localhost')
    .replace('0.0.0.0', 'localhost')
    .replace('127.0.0.1', 'localhost');
  const logger = new Logger('Consign');
  logger.log(`Consign is running at ${url} (API docs at ${url}/docs)`);
  logger.log(
    `Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.DATA_DIR}`}`,
  );
  if (bootstrap.apiKey) {
    logger.log(
      `API key of merchant ${bootstrap.merchantId}${bootstrap.generated ? ' (generated, saved under DATA_DIR)' : ''}: ${bootstrap.apiKey}`,
    );
  }
  if (admin.apiKey)
    logger.log(
      `Admin API key${admin.generated ? ' (generated, saved under DATA_DIR)' : ''}: ${admin.apiKey} (for /2026-05/cloud/admin/…)`,
    );
  logger.log(
    sandbox.enabled
      ? `Carrier sandbox: on (a step every ${sandbox.CARRIER_SANDBOX_STEP_MS} ms; CARRIER_SANDBOX=off to stop it)`
      : 'Carrier sandbox: off',
  );
  logger.log('Press Ctrl-C to stop.');
}

runMain('consign', main);
