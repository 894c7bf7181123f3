import { Logger, Module } from '@nestjs/common';
import { CatalogModule } from '@consign/catalog';
import { RatingModule } from '@consign/rating';
import { BootstrapKeyService, GatewayModule, createHttpApp } from '@consign/gateway';
import { InboundModule } from '@consign/inbound';
import { OrderModule } from '@consign/order';
import {
  IN_PROCESS_BROKER,
  InProcessBroker,
  PlatformModule,
  busServerOptions,
  loadConfig,
  runMain,
  exitCleanlyOnSignals,
} from '@consign/platform';

/**
 * Consign in one process: the gateway and every service on the in-process bus and the embedded
 * database under DATA_DIR (or DATABASE_URL). `npm start` runs this.
 */
async function main(): Promise<void> {
  const config = loadConfig();

  @Module({
    imports: [
      PlatformModule.forRoot({ config, appName: 'consign-standalone', requestsReplies: true }),
      GatewayModule,
      CatalogModule,
      RatingModule,
      OrderModule,
      InboundModule,
    ],
  })
  class StandaloneModule {}

  const app = await createHttpApp(StandaloneModule, config);
  const broker = app.get<InProcessBroker | null>(IN_PROCESS_BROKER);
  app.connectMicroservice(busServerOptions(config, 'consign-standalone', broker));
  await app.startAllMicroservices();
  const bootstrap = await app.get(BootstrapKeyService).ensureFirstMerchant();
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
  logger.log('Press Ctrl-C to stop.');
}

runMain('consign', main);
