import './tracing';
import { Logger, Module } from '@nestjs/common';
import { BootstrapKeyService, GatewayModule, createHttpApp } from '@consign/gateway';
import { ConfigError, loadConfig } from '@consign/config';
import {
  PlatformModule,
  claimEmbeddedDatabase,
  runBeforeExit,
  runMain,
  exitCleanlyOnSignals,
  healthModule,
} from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

/** The HTTP entry as its own process (distributed mode): forwards every request over Kafka. */
runMain('api-gateway', async () => {
  const config = loadConfig();
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError([
      'KAFKA_BROKERS must be set to run api-gateway as its own process (or run the standalone app)',
    ]);
  }

  claimEmbeddedDatabase(config, 'api-gateway');

  @Module({
    imports: [
      PlatformModule.forRoot({ config, appName: 'api-gateway', requestsReplies: true }),
      await healthModule(),
      GatewayModule,
    ],
  })
  class ApiGatewayModule {}

  const app = await createHttpApp(ApiGatewayModule, config, {
    appName: 'api-gateway',
    logFormat: 'json',
  });
  const bootstrap = await app.get(BootstrapKeyService).ensureFirstMerchant();
  const admin = await app.get(BootstrapKeyService).ensureAdminKey();
  await app.listen(config.PORT, config.HOST);
  exitCleanlyOnSignals(app, 'api-gateway');
  const logger = new Logger('api-gateway');
  logger.log(`api-gateway is listening at ${await app.getUrl()}`);
  if (bootstrap.generated)
    logger.log(`Generated API key of merchant ${bootstrap.merchantId}: ${bootstrap.apiKey}`);
  if (admin.generated) logger.log(`Generated admin API key: ${admin.apiKey}`);
});
