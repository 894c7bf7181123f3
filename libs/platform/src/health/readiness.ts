import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus' with {
  'resolution-mode': 'import',
};
import { Admin, Kafka, logLevel } from 'kafkajs';
import { AppConfig } from '../config/app-config';
import { DatabaseHost } from '../database/database-host';
import { DATABASE_HOST } from '../platform.tokens';
import { kafkaConsumerHealth } from './kafka-consumer-health';
import { ShutdownState } from './shutdown-state';
import { HEALTH_INDICATORS } from './terminus.tokens';

/** A probe must answer well within the orchestrator's probe timeout (Kubernetes: 1 s default). */
const CHECK_TIMEOUT_MS = 800;
/** Probes of every replica every few seconds must not become load on the broker. */
const BROKER_CACHE_MS = 1500;

/**
 * The checks behind `GET /health/ready`: not shutting down, the database answers, the broker is
 * reachable and every consumer is in its group.
 */
@Injectable()
export class Readiness implements OnApplicationShutdown {
  private admin?: Promise<Admin>;

  constructor(
    @Inject(HEALTH_INDICATORS) private readonly indicators: HealthIndicatorService,
    private readonly config: AppConfig,
    private readonly shutdown: ShutdownState,
    @Inject(DATABASE_HOST) private readonly database: DatabaseHost,
  ) {}

  get shuttingDown(): boolean {
    return this.shutdown.shuttingDown;
  }

  /** Up until SIGTERM; then down, so the load balancer stops routing here. */
  shutdownCheck(): HealthIndicatorResult<'shutdown'> {
    const check = this.indicators.check('shutdown');
    const since = this.shutdown.startedAt;
    return since === undefined
      ? check.up()
      : check.down({ message: 'shutting down', since: new Date(since).toISOString() });
  }

  /** `SELECT 1` on each of the process's connections (one per service schema). */
  databaseCheck(): PromiseLike<HealthIndicatorResult<'database'>> {
    return this.indicators
      .check('database')
      .attempt(async () => ({
        kind: this.database.target.kind,
        connections: await this.database.ping(),
      }))
      .withTimeout(CHECK_TIMEOUT_MS);
  }

  /**
   * Kafka: the cluster answers a metadata request (cached briefly) and every consumer of the
   * process is a member of its group. In-process bus: it lives in this process.
   */
  brokerCheck(): PromiseLike<HealthIndicatorResult<'broker'>> {
    const check = this.indicators.check('broker');
    if (!this.config.KAFKA_BROKERS) return Promise.resolve(check.up({ transport: 'in-process' }));
    return check
      .attempt(async () => {
        const cluster = await (await this.connectAdmin()).describeCluster();
        const consumers = kafkaConsumerHealth.statuses();
        const out = consumers.filter((consumer) => !consumer.joined);
        if (out.length > 0)
          throw new Error(
            `not in their group: ${out.map((c) => `${c.name} (${c.lastEvent})`).join(', ')}`,
          );
        return {
          transport: 'kafka',
          brokers: cluster.brokers.length,
          consumers: consumers.length,
        };
      })
      .withTimeout(CHECK_TIMEOUT_MS)
      .cacheFor(BROKER_CACHE_MS);
  }

  private connectAdmin(): Promise<Admin> {
    this.admin ??= (async () => {
      const kafka = new Kafka({
        clientId: 'health',
        brokers: this.config.kafkaBrokers,
        // A probe answers now or fails; the next probe tries again.
        connectionTimeout: CHECK_TIMEOUT_MS,
        requestTimeout: CHECK_TIMEOUT_MS,
        retry: { retries: 0 },
        logLevel: logLevel.NOTHING,
      });
      const admin = kafka.admin();
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.admin = undefined;
      throw error;
    });
    return this.admin;
  }

  async onApplicationShutdown(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    await admin?.then((a) => a.disconnect()).catch(() => undefined);
  }
}
