import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookEventType } from '@consign/contracts';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

/** Merchants whose subscriptions are kept at most; past it, the stale ones are dropped first. */
const MAX_MERCHANTS = 10_000;

interface Entry {
  types: ReadonlySet<string>;
  /** performance.now() when the query that read them was sent: they are at least that fresh. */
  readAt: number;
}

/**
 * Which event types each merchant's enabled endpoints subscribe to, cached per process for at
 * most WEBHOOK_SUBSCRIPTION_TTL_MS (T): webhook-dispatcher ingests an event (inbox row, queueing
 * statement) only when some endpoint wants it, so that events nobody subscribes to cost one
 * cached lookup and no statement.
 *
 * The guarantee (docs/webhooks.md): an endpoint receives every event of its types emitted after
 * its creation (or re-enabling) was acknowledged, whichever process consumes it. A cached set is
 * used only while younger than T, measured from the moment its query was sent, and a command that
 * adds subscriptions answers only T after its commit (`settle`): any set used after the answer was
 * read after the commit, so it has the endpoint. Commands that remove subscriptions (delete, an
 * endpoint disabled) need no wait: a stale set only lets an event through to the queueing
 * statement, which joins the endpoints as they are and queues nothing for them.
 */
@Injectable()
export class WebhookSubscriptions {
  private readonly entries = new Map<number, Entry>();
  private readonly loading = new Map<number, Promise<ReadonlySet<string>>>();
  /** Bumped by every invalidation: a read that started before it is not cached. */
  private generation = 0;
  private readonly ttlMs: number;

  constructor(
    @Inject(webhookDatabase.dataSource) private readonly dataSource: DataSource,
    config: WebhookConfig,
    private readonly endpoints: WebhookEndpointRepository,
  ) {
    this.ttlMs = config.WEBHOOK_SUBSCRIPTION_TTL_MS;
  }

  /** Whether an enabled endpoint of the merchant subscribes to the type (cached up to T). */
  async wants(merchantId: number, type: WebhookEventType): Promise<boolean> {
    const entry = this.entries.get(merchantId);
    if (entry && performance.now() - entry.readAt < this.ttlMs) return entry.types.has(type);
    return (await this.read(merchantId)).has(type);
  }

  /** Forgets what this process knows of the merchant's subscriptions (of all, without one). */
  invalidate(merchantId?: number): void {
    this.generation++;
    if (merchantId === undefined) {
      this.entries.clear();
      this.loading.clear();
    } else {
      this.entries.delete(merchantId);
      this.loading.delete(merchantId);
    }
  }

  /**
   * Waits until every process's cached sets were read after now: a command that added
   * subscriptions calls it after its commit, before it answers.
   */
  settle(): Promise<void> {
    return this.ttlMs > 0
      ? new Promise((resolve) => setTimeout(resolve, this.ttlMs))
      : Promise.resolve();
  }

  private read(merchantId: number): Promise<ReadonlySet<string>> {
    const pending = this.loading.get(merchantId);
    if (pending) return pending;
    const generation = this.generation;
    const readAt = performance.now();
    const loaded = this.endpoints
      .subscribedTypes(this.dataSource, merchantId)
      .then((types) => {
        if (generation === this.generation && this.ttlMs > 0)
          this.remember(merchantId, { types, readAt });
        return types;
      })
      .finally(() => {
        if (this.loading.get(merchantId) === loaded) this.loading.delete(merchantId);
      });
    this.loading.set(merchantId, loaded);
    return loaded;
  }

  private remember(merchantId: number, entry: Entry): void {
    if (this.entries.size >= MAX_MERCHANTS && !this.entries.has(merchantId)) {
      const now = performance.now();
      for (const [id, cached] of this.entries)
        if (now - cached.readAt >= this.ttlMs) this.entries.delete(id);
      // All fresh: the oldest inserted goes.
      if (this.entries.size >= MAX_MERCHANTS) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
    }
    this.entries.delete(merchantId);
    this.entries.set(merchantId, entry);
  }
}
