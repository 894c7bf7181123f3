import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import { ClientKafka, ClientProxy, CustomStrategy } from '@nestjs/microservices';
import type { Consumer } from 'kafkajs';
import { AppConfig } from '@consign/config';
import { DatabaseHost, lockDataDir, DATABASE_HOST } from '@consign/database';
import {
  BUS_CLIENT,
  IN_PROCESS_BROKER,
  CommandBus,
  InProcessBroker,
  InProcessClient,
  InProcessServer,
  kafkaClientOptions,
  kafkaServerOptions,
  ObservedKafkaServer,
  PacedKafkaClient,
  releaseConsumer,
  superviseConsumer,
  BUS_CONNECT_BACKOFF,
  busClientConnections,
  connectInBackground,
  kafkaConsumerHealth,
  warnOnRequestTimeouts,
} from '@consign/bus';
import { OBSERVED_APP_NAME, ObservabilityLifecycle } from './observability.lifecycle';
import { COMMAND_TOPICS, CommandTopic, replyTopicOf } from '@consign/contracts';
import { ShutdownState } from './health/shutdown-state';
import { metrics } from '@consign/observability';

export interface PlatformOptions {
  config: AppConfig;
  /** The process's name: Kafka client id and consumer group prefix. */
  appName: string;
  /** Whether this process sends commands and waits for replies (the gateway does). */
  requestsReplies: boolean;
  /** The commands it sends, whose reply topics it listens to (Kafka); default every command. */
  requests?: readonly CommandTopic[];
}

export function databaseTargetOf(config: AppConfig): ConstructorParameters<typeof DatabaseHost>[0] {
  return config.DATABASE_URL
    ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
    : { kind: 'pglite', dataDir: `${config.DATA_DIR.replace(/\/$/, '')}/pgdata` };
}

/**
 * Claims the embedded data folder (when there is no DATABASE_URL) before anything else starts,
 * so that a second process on a live folder stops with DataDirInUseError having written nothing.
 * Returns the release (the database host takes its own claim when it opens the folder).
 */
export function claimEmbeddedDatabase(config: AppConfig, app: string): () => void {
  const target = databaseTargetOf(config);
  return target.kind === 'pglite' && !target.dataDir.startsWith('memory://')
    ? lockDataDir(target.dataDir, app)
    : () => undefined;
}

@Injectable()
class PlatformLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Platform');
  constructor(
    @Inject(DATABASE_HOST) private readonly database: DatabaseHost,
    @Inject(BUS_CLIENT) private readonly client: ClientProxy,
  ) {}

  /** Runs last (a global module): after the consumers stopped and the outbox relays flushed. */
  async onApplicationShutdown(): Promise<void> {
    busClientConnections.get(this.client)?.release();
    const replyConsumer = replyConsumerOf(this.client);
    if (replyConsumer) releaseConsumer(replyConsumer);
    await Promise.resolve(this.client.close()).then(
      () => this.logger.log('bus client closed (producer and reply consumer)'),
      (error: unknown) => this.logger.warn(`closing the bus client: ${String(error)}`),
    );
    await this.database.close();
    this.logger.log('database closed');
  }
}

/**
 * The Kafka client's reply consumer, when it has one: ClientKafka's getter throws instead of
 * answering undefined for a client that never connected one (a service that sent no request),
 * which made such a service's shutdown fail and exit 1.
 */
function replyConsumerOf(client: ClientProxy): ClientKafka['consumer'] | undefined {
  if (!(client instanceof ClientKafka)) return undefined;
  try {
    return client.consumer;
  } catch {
    return undefined;
  }
}

/**
 * Resolves after the consumer's first fetch (its positions resolved), or after `timeoutMs`.
 * Called right after ClientKafka.connect() started: it creates its consumer synchronously.
 */
function firstFetch(consumer: Consumer, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    const unsubscribe = consumer.on(consumer.events.FETCH, done);
  });
}

/**
 * What every process has: validated configuration, its database host (PostgreSQL or embedded),
 * and the bus (Kafka when KAFKA_BROKERS is set, otherwise the in-process transport).
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const { config } = options;
    const broker = config.KAFKA_BROKERS ? undefined : new InProcessBroker();
    return {
      module: PlatformModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: ShutdownState, useValue: new ShutdownState() },
        {
          provide: DATABASE_HOST,
          useFactory: () => new DatabaseHost(databaseTargetOf(config), options.appName),
        },
        { provide: IN_PROCESS_BROKER, useValue: broker ?? null },
        {
          provide: BUS_CLIENT,
          useFactory: async (): Promise<ClientProxy> => {
            if (broker) return new InProcessClient(broker);
            const client = new PacedKafkaClient(
              // Nest appends "-client" to both ids. A process that only emits events joins no group.
              kafkaClientOptions({
                clientId: options.appName,
                groupId: options.appName,
                brokers: config.kafkaBrokers,
                producerOnly: !options.requestsReplies,
                maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES,
                commitIntervalMs: config.BUS_COMMIT_INTERVAL_MS,
                fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
              }).options ?? {},
              config.BUS_COMMIT_INTERVAL_MS,
            );
            const requests = options.requestsReplies ? (options.requests ?? COMMAND_TOPICS) : [];
            for (const topic of requests) client.subscribeToResponseOf(topic);
            const name = `${options.appName}-client`;
            if (requests.length) metrics().consumerGroups.add(name, requests.map(replyTopicOf));
            // Not awaited: the process starts (health endpoints, readiness 503 with the reason)
            // whether or not the broker answers, and connects whenever it does. Until then the
            // CommandBus answers Unavailable at once.
            const connection = connectInBackground(
              name,
              async () => {
                const connecting = client.connect();
                // connect() resolved once the reply consumer joined its group; a new group's
                // position (the end of the reply topics) is known only once it fetched.
                const fetched = requests.length ? firstFetch(client.consumer) : undefined;
                await connecting;
                await fetched;
                // Commands and the outbox's events go out through it.
                warnOnRequestTimeouts(`${options.appName} producer`, client.producer);
                if (requests.length) {
                  kafkaConsumerHealth.track(name, client.consumer);
                  warnOnRequestTimeouts(name, client.consumer);
                  // Without its reply consumer the process hears no answer: keep it running.
                  superviseConsumer(name, client.consumer, () => client.bindTopics());
                }
              },
              // A failed connect() stays failed in ClientKafka until close() forgets it.
              { reset: () => client.close(), backoff: BUS_CONNECT_BACKOFF },
            );
            busClientConnections.set(client, connection);
            // ClientKafka narrows ClientProxy's status type; callers only use the ClientProxy API.
            return client as unknown as ClientProxy;
          },
        },
        CommandBus,
        PlatformLifecycle,
        { provide: OBSERVED_APP_NAME, useValue: options.appName },
        ObservabilityLifecycle,
      ],
      exports: [AppConfig, ShutdownState, DATABASE_HOST, IN_PROCESS_BROKER, BUS_CLIENT, CommandBus],
    };
  }
}

/**
 * The microservice (server) side of the bus for a process hosting services: both transports
 * restore the correlation id a consumed message carries around its handler.
 */
export function busServerOptions(
  config: AppConfig,
  appName: string,
  broker: InProcessBroker | null,
  kafka: {
    /**
     * Partitions whose messages are handled at the same time (kafkajs; default 1): a consumer
     * that batches what it handles at once (InboxBatcher) gets batches from it. Each partition's
     * messages are still handled one after another, in order.
     */
    partitionsConsumedConcurrently?: number;
  } = {},
): CustomStrategy {
  if (!config.KAFKA_BROKERS) {
    if (!broker) throw new Error('the in-process bus needs its broker');
    return { strategy: new InProcessServer(broker) };
  }
  const { options } = kafkaServerOptions({
    clientId: `${appName}-server`,
    groupId: appName,
    brokers: config.kafkaBrokers,
    maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES,
    commitIntervalMs: config.BUS_COMMIT_INTERVAL_MS,
    fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT_MS,
  });
  // Nest's ServerKafka, observed (correlation id, metrics), each message handled with its key and
  // headers at hand (dead letters).
  const run = {
    ...options?.run,
    ...(kafka.partitionsConsumedConcurrently
      ? { partitionsConsumedConcurrently: kafka.partitionsConsumedConcurrently }
      : {}),
  };
  return {
    strategy: new ObservedKafkaServer(
      { ...(options ?? {}), ...(Object.keys(run).length ? { run } : {}) },
      config.BUS_COMMIT_INTERVAL_MS,
    ),
  };
}
