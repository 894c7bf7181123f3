import { Logger, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { CommandTopic } from '@consign/contracts';
import { AppConfig, ConfigError, loadConfig } from '@consign/config';
import { PlatformModule, busServerOptions, claimEmbeddedDatabase } from '../platform.module';
import { exitCleanlyOnSignals } from './graceful-shutdown';
import { GRACEFUL_FASTIFY_OPTIONS } from '../health/shutdown-state';
import { ObservedKafkaServer, busConnections } from '@consign/bus';
import { healthModule } from '../health/health.module';
import { createAppLogger } from '@consign/observability';

/**
 * Bootstraps one service as its own process (distributed mode): the bus server on Kafka, the
 * service's database, and HTTP on PORT/HOST for the operational endpoints only (/health/live,
 * /health/ready). Stops cleanly on SIGTERM/SIGINT (see exitCleanlyOnSignals).
 */
export async function runServiceProcess(
  appName: string,
  serviceModule: Type<unknown>,
  options: {
    /** Commands the service sends to other services (request-reply), e.g. reference data. */
    requests?: readonly CommandTopic[];
    /** Partitions handled at the same time by the bus server (see busServerOptions). */
    partitionsConsumedConcurrently?: number;
  } = {},
): Promise<void> {
  const requests = options.requests ?? [];
  const config: AppConfig = loadConfig();
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError([
      `KAFKA_BROKERS must be set to run ${appName} as its own process (or run the standalone app)`,
    ]);
  }

  // A second process on a live embedded folder stops here, with a message, having written nothing.
  claimEmbeddedDatabase(config, appName);
  const health = await healthModule();

  @Module({
    imports: [
      PlatformModule.forRoot({
        config,
        appName,
        requestsReplies: requests.length > 0,
        requests,
      }),
      health,
      serviceModule,
    ],
  })
  class ServiceProcessModule {}

  const app = await NestFactory.create(
    ServiceProcessModule,
    new FastifyAdapter({ ...GRACEFUL_FASTIFY_OPTIONS }),
    // JSON lines unless LOG_FORMAT says otherwise: a service's output is read by a log pipeline.
    { logger: createAppLogger(appName, config, 'json') },
  );
  const strategy = busServerOptions(config, appName, null, {
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently,
  }).strategy;
  app.connectMicroservice({ strategy });
  // Resolves at once: the bus server connects in the background, for as long as the broker
  // takes to answer (readiness says so meanwhile), so no broker outage stops the process.
  await app.startAllMicroservices();
  await app.listen(config.PORT, config.HOST);
  exitCleanlyOnSignals(app, appName);
  const logger = new Logger(appName);
  const url = await app.getUrl();
  logger.log(`${appName} is listening (health at ${url}/health/live)`);
  // Ready once every bus connection of the process is made (the server's consumer, the client's
  // reply consumer, a batch consumer): before, readiness still names the one not made yet.
  if (strategy instanceof ObservedKafkaServer)
    void busConnections
      .allMade()
      .then(() => logger.log(`${appName} is ready (health at ${url}/health/ready)`));
}
