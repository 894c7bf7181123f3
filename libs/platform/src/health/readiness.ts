import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus' with {
  'resolution-mode': 'import',
};
import { Admin, Kafka, logLevel } from 'kafkajs';
import { AppConfig } from '@consign/config';
import { DatabaseHost, DATABASE_HOST } from '@consign/database';
import { kafkaConsumerHealth, busConnections, BusHealth, busHealth } from '@consign/bus';
import { OutboxHealth, outboxHealth } from '@consign/observability';
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
    /** The process's registries; tests give their own. */
    @Optional() @Inject(OutboxHealth) private readonly outboxes: OutboxHealth = outboxHealth,
    @Optional() @Inject(BusHealth) private readonly bus: BusHealth = busHealth,
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
        // Connections still being made (the broker has not answered since start-up): the
        // reason an operator needs, rather than the admin client's connection error.
        const pending = busConnections.pending();
        if (pending.length > 0)
          throw new Error(
            `not connected to the broker yet: ${pending
              .map(
                (c) =>
                  `${c.name} (trying for ${Math.round((Date.now() - c.since) / 1000)} s, ${c.failedAttempts} failed attempt(s)${c.lastError ? `, last: ${c.lastError}` : ''})`,
              )
              .join(', ')}`,
          );
        const cluster = await (await this.connectAdmin()).describeCluster();
        const consumers = kafkaConsumerHealth.statuses();
        const now = Date.now();
        const out = kafkaConsumerHealth.notConsuming(this.config.READINESS_MAX_REBALANCE_MS, now);
        if (out.length > 0)
          throw new Error(
            `not consuming: ${out
              .map((c) =>
                c.joined && c.rebalancingSince !== undefined
                  ? `${c.name} (rebalancing for ${Math.round((now - c.rebalancingSince) / 1000)} s)`
                  : `${c.name} (${c.lastEvent})`,
              )
              .join(', ')}`,
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

  /**
   * Every outbox of the process drains: its oldest unpublished event is at most
   * READINESS_MAX_OUTBOX_AGE_MS old. An outbox whose age cannot be read leaves this to the
   * database check.
   */
  outboxCheck(now: number = Date.now()): PromiseLike<HealthIndicatorResult<'outbox'>> {
    const check = this.indicators.check('outbox');
    const maxMs = this.config.READINESS_MAX_OUTBOX_AGE_MS;
    if (maxMs === 0) return Promise.resolve(check.up({ checked: false }));
    let timer: NodeJS.Timeout | undefined;
    // A database that does not answer in time is the database check's to report.
    const unread = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), CHECK_TIMEOUT_MS);
    });
    return Promise.race([this.outboxes.ages(now), unread]).then((ages) => {
      clearTimeout(timer);
      if (ages === null) return check.up({ read: false });
      const stuck = ages.filter(
        ({ oldestPendingSeconds }) =>
          typeof oldestPendingSeconds === 'number' && oldestPendingSeconds * 1000 > maxMs,
      );
      if (stuck.length === 0) return check.up({ outboxes: ages.length });
      return check.down({
        message: stuck
          .map(
            ({ service, oldestPendingSeconds }) =>
              `the outbox of ${service} is not draining: its oldest unpublished event is ${Math.round(oldestPendingSeconds as number)} s old (at most ${maxMs / 1000} s)`,
          )
          .join('; '),
        outboxes: Object.fromEntries(
          stuck.map(({ service, oldestPendingSeconds }) => [
            service,
            { oldest_pending_seconds: Math.round(oldestPendingSeconds as number) },
          ]),
        ),
      });
    });
  }

  /**
   * Requests to the services are answered: no command topic has had its last
   * READINESS_BUS_TIMEOUTS requests time out within READINESS_BUS_TIMEOUT_WINDOW_MS (a service
   * that is wedged, or replies this process no longer receives). No query: read from memory.
   */
  busCheck(now: number = Date.now()): HealthIndicatorResult<'bus'> {
    const check = this.indicators.check('bus');
    const failing = this.bus.timingOut(
      this.config.READINESS_BUS_TIMEOUTS,
      this.config.READINESS_BUS_TIMEOUT_WINDOW_MS,
      now,
    );
    if (failing.length === 0) return check.up();
    return check.down({
      message: failing
        .map(
          ({ service, topic, consecutive, lastTimeoutAt }) =>
            `requests to ${service} keep timing out: the last ${consecutive} on ${topic}, the latest ${Math.round((now - lastTimeoutAt) / 1000)} s ago`,
        )
        .join('; '),
      services: [...new Set(failing.map(({ service }) => service))],
    });
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
