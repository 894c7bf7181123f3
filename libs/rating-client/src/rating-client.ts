import { Injectable, Logger, Module } from '@nestjs/common';
import {
  CarrierServiceView,
  CommandReply,
  CommonErrorCode,
  RatingTopic,
  WarehouseView,
} from '@consign/contracts';
import { AppConfig } from '@consign/config';
import { CommandBus } from '@consign/bus';
import { DomainError } from '@consign/core';
import { currentCommand } from '@consign/observability';

/** How long an answer of rating-service is reused: codes change rarely, requests are frequent. */
export const REFERENCE_DATA_TTL_MS = 60_000;
const CACHE_MAX = 10_000;

interface Entry<T> {
  expiresAt: number;
  value: Promise<T>;
}

/**
 * rating-service's client for the services that check codes against its reference data:
 * warehouses and carrier services, asked of rating-service (request-reply) and cached per merchant
 * for a minute; concurrent misses share one request. Call it before a transaction, never inside
 * one. When rating-service does not answer (within half the time the caller has left), the
 * caller's use case fails with Unavailable (503): a code is never accepted unchecked.
 */
@Injectable()
export class RatingClient {
  private readonly logger = new Logger('RatingClient');
  private readonly cache = new Map<string, Entry<unknown>>();

  constructor(
    private readonly bus: CommandBus,
    private readonly config: AppConfig,
  ) {}

  warehouses(merchantId: number): Promise<WarehouseView[]> {
    return this.cached(RatingTopic.ListWarehouses, merchantId);
  }

  services(merchantId: number): Promise<CarrierServiceView[]> {
    return this.cached(RatingTopic.ListServices, merchantId);
  }

  private cached<K extends RatingCommand>(topic: K, merchantId: number): Promise<CommandReply<K>> {
    const key = `${topic}:${merchantId}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > now) return hit.value as Promise<CommandReply<K>>;
    const value = this.fetch(topic, merchantId);
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { expiresAt: now + REFERENCE_DATA_TTL_MS, value });
    // A failure is not remembered: the next request asks again.
    value.catch(() => {
      if (this.cache.get(key)?.value === value) this.cache.delete(key);
    });
    return value;
  }

  private async fetch<K extends RatingCommand>(
    topic: K,
    merchantId: number,
  ): Promise<CommandReply<K>> {
    const reply = await this.bus.request(
      topic,
      { merchant_id: merchantId },
      {
        key: String(merchantId),
        timeoutMs: this.waitMs(),
      },
    );
    if (reply.ok) return reply.data;
    this.logger.warn(`${topic}: ${reply.error.code} ${reply.error.message}`);
    throw new DomainError(
      CommonErrorCode.Unavailable,
      'Reference data (warehouses, carrier services) is unavailable: the rating service did not answer. Retry later.',
    );
  }

  /**
   * Half the time the command being handled has left before its sender's deadline (the gateway's
   * wait), else half the bus timeout: the client still hears this 503 well before the gateway
   * would give up with 504, and a slow answer (a rebalance after a broker stall) is waited for as
   * long as the gateway is willing to wait, not a fixed 5 s that turned it into a 503 while the
   * request still had most of its time.
   */
  private waitMs(): number {
    const deadline = currentCommand()?.deadline;
    const left = deadline === undefined ? this.config.BUS_TIMEOUT_MS : deadline - Date.now();
    return Math.max(1, Math.floor(left / 2));
  }
}

type RatingCommand = (typeof RatingTopic)[keyof typeof RatingTopic];

/** Provides the one RatingClient of the process to the modules that import it. */
@Module({ providers: [RatingClient], exports: [RatingClient] })
export class RatingClientModule {}
