import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '@consign/config';
import { ConsumerLagProbe } from '@consign/bus';
import { instrumentHttp, metrics } from '@consign/observability';

export const OBSERVED_APP_NAME = Symbol('ObservedAppName');

/**
 * Part of PlatformModule, so every app has it: wherever the app serves HTTP, the correlation-id
 * and latency hooks and GET /metrics; with Kafka, the consumer-lag probe behind the lag gauge.
 */
@Injectable()
export class ObservabilityLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Observability');
  private probe?: ConsumerLagProbe;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
    @Inject(OBSERVED_APP_NAME) private readonly appName: string,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as
      { getType?(): string; getInstance?(): unknown } | undefined;
    if (adapter?.getType?.() === 'fastify' && adapter.getInstance) {
      instrumentHttp(adapter.getInstance() as FastifyInstance, metrics());
    } else if (adapter) {
      this.logger.warn('GET /metrics needs the Fastify adapter: not served');
    }
    if (this.config.KAFKA_BROKERS) {
      this.probe = new ConsumerLagProbe(
        this.config.kafkaBrokers,
        `${this.appName}-metrics`,
        metrics().consumerGroups,
      );
      metrics().trackConsumerLag(this.probe);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const probe = this.probe;
    if (!probe) return;
    this.probe = undefined;
    metrics().untrackConsumerLag(probe);
    await probe.close().catch(() => undefined);
  }
}
