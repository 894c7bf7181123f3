import { Logger, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { PlatformModule, busServerOptions } from '../platform.module';

/**
 * Bootstraps one service as its own process (distributed mode): the bus server on Kafka, the
 * service's database, no HTTP. Stops cleanly on SIGTERM/SIGINT.
 */
export async function runServiceProcess(
  appName: string,
  serviceModule: Type<unknown>,
): Promise<void> {
  const config: AppConfig = loadConfig();
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError([
      `KAFKA_BROKERS must be set to run ${appName} as its own process (or run the standalone app)`,
    ]);
  }

  @Module({
    imports: [PlatformModule.forRoot({ config, appName, requestsReplies: false }), serviceModule],
  })
  class ServiceProcessModule {}

  const app = await NestFactory.create(ServiceProcessModule, {
    logger: ['fatal', 'error', 'warn', 'log'],
  });
  app.enableShutdownHooks();
  app.connectMicroservice(busServerOptions(config, appName, null));
  await app.startAllMicroservices();
  await app.init();
  new Logger(appName).log(`${appName} is ready`);
}
