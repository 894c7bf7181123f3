import { Logger, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { CommandTopic } from '@consign/contracts';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { PlatformModule, busServerOptions } from '../platform.module';
import { exitCleanlyOnSignals } from './graceful-shutdown';
import { createAppLogger } from '../observability/app-logger';

/**
 * Bootstraps one service as its own process (distributed mode): the bus server on Kafka, the
 * service's database, no HTTP. Stops cleanly on SIGTERM/SIGINT.
 */
export async function runServiceProcess(
  appName: string,
  serviceModule: Type<unknown>,
  options: {
    /** Commands the service sends to other services (request-reply), e.g. reference data. */
    requests?: readonly CommandTopic[];
  } = {},
): Promise<void> {
  const requests = options.requests ?? [];
  const config: AppConfig = loadConfig();
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError([
      `KAFKA_BROKERS must be set to run ${appName} as its own process (or run the standalone app)`,
    ]);
  }

  @Module({
    imports: [
      PlatformModule.forRoot({
        config,
        appName,
        requestsReplies: requests.length > 0,
        requests,
      }),
      serviceModule,
    ],
  })
  class ServiceProcessModule {}

  // Fastify, not Express: a service serves no API, but its health and metrics endpoints will.
  const app = await NestFactory.create(ServiceProcessModule, new FastifyAdapter(), {
    // JSON lines unless LOG_FORMAT says otherwise: a service's output is read by a log pipeline.
    logger: createAppLogger(appName, config, 'json'),
  });
  app.connectMicroservice(busServerOptions(config, appName, null));
  await app.startAllMicroservices();
  await app.init();
  exitCleanlyOnSignals(app, appName);
  new Logger(appName).log(`${appName} is ready`);
}
