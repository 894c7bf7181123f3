import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookDeliveryStatus } from '@consign/contracts';
import { MicroBatcher } from '@consign/messaging';
import {
  DATABASE_HOST,
  DatabaseHost,
  SOLE_WRITER_POLL_MS,
  deleteInBatches,
  soleWriterSleepMs,
} from '@consign/database';
import { runPeriodically } from '@consign/core';
import { AddressPolicy } from './address-policy';
import { nextAttemptAt, RetryPolicy } from './retry-schedule';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import {
  AttemptRecord,
  ClaimedDelivery,
  WebhookDeliveryRepository,
} from './webhook-delivery.repository';
import { WebhookSender } from './webhook-sender';
import { signedHeaders } from './webhook-signer';
import { WebhookSubscriptions } from './webhook-subscriptions';

/** How long a nudge waits for more events before claiming (one claim for a burst of them). */
const NUDGE_DELAY_MS = 5;
/**
 * How long a finished delivery (delivered, or failed for good) is kept, from its creation, with
 * its attempts: what a merchant can still list and re-send (Stripe keeps events 30 days).
 */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Deliveries deleted per statement (their attempts go with them). */
const RETENTION_BATCH = 1000;

/**
 * Sends queued deliveries: claims the due ones (a lease, so a dispatcher that dies mid-attempt
 * leaves them due again, and replicas share the queue), keeps up to WEBHOOK_CONCURRENCY attempts
 * in flight, and records attempts in batches. A 2xx is delivered; anything else is retried on the
 * schedule (retry-schedule.ts) until the horizon, then the delivery failed and its endpoint is
 * disabled. Woken at once when events are queued (nudge), otherwise it polls every WEBHOOK_POLL_MS
 * (for deliveries another replica queued), or, on a database only this process writes, sleeps
 * until the next delivery falls due (SOLE_WRITER_POLL_MS at most). Hourly, it deletes
 * finished deliveries older than WEBHOOK_DELIVERY_RETENTION_MS; a pending one stays.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly sender: WebhookSender;
  private readonly policy: RetryPolicy;
  private readonly leaseMs: number;
  private readonly recorder: MicroBatcher<AttemptRecord, void>;
  private inFlight = 0;
  private running = false;
  private pumping?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private soon?: NodeJS.Timeout;
  private readonly sends = new Set<Promise<void>>();
  private stopSweeping?: () => Promise<void>;
  /**
   * No other process writes the queue: every way a delivery becomes due is this process's own (an
   * event queued, a delivery re-sent, an attempt finished: each nudges) or the clock (a retry's
   * time, a lease's end), which the dispatcher sleeps until.
   */
  private readonly soleWriter: boolean;
  /** How long to sleep after the pump under way, when nothing nudges meanwhile. */
  private sleepMs: number;

  constructor(
    @Inject(webhookDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly config: WebhookConfig,
    private readonly subscriptions: WebhookSubscriptions,
    private readonly deliveries: WebhookDeliveryRepository,
    @Optional() @Inject(DATABASE_HOST) host?: Pick<DatabaseHost, 'exclusive'>,
  ) {
    this.soleWriter = host?.exclusive ?? false;
    this.sleepMs = config.WEBHOOK_POLL_MS;
    this.sender = new WebhookSender(
      new AddressPolicy(config.WEBHOOK_ALLOWED_NETWORKS),
      config.WEBHOOK_TIMEOUT_MS,
    );
    this.policy = {
      baseMs: config.WEBHOOK_RETRY_BASE_MS,
      maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
      horizonMs: config.WEBHOOK_RETRY_HORIZON_MS,
    };
    // Longer than one attempt can take, with room for recording it.
    this.leaseMs = config.WEBHOOK_TIMEOUT_MS * 2 + 5_000;
    this.recorder = new MicroBatcher(
      async (records) => {
        await this.dataSource.transaction((manager) => this.deliveries.record(manager, records));
        // An endpoint disabled by a failed delivery: its events need not be ingested any more.
        if (records.some((r) => r.outcome === WebhookDeliveryStatus.Failed))
          this.subscriptions.invalidate();
        return records.map(() => undefined);
      },
      { maxItems: 500, maxDelayMs: 10 },
    );
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.startPump();
    this.stopSweeping = runPeriodically(
      async () => {
        const deleted = await this.sweep();
        if (deleted > 0) this.logger.log(`deleted ${deleted} finished deliveries past retention`);
      },
      RETENTION_SWEEP_INTERVAL_MS,
      (error: unknown) => this.logger.warn(`sweeping old deliveries failed: ${String(error)}`),
    );
  }

  /** Deletes the finished deliveries created before the retention, in batches; returns how many. */
  sweep(now = Date.now()): Promise<number> {
    const cutOff = new Date(now - WEBHOOK_DELIVERY_RETENTION_MS);
    return deleteInBatches(RETENTION_BATCH, () =>
      this.deliveries.deleteFinished(this.dataSource, cutOff, RETENTION_BATCH),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopSweeping?.();
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.soon) clearTimeout(this.soon);
    await this.pumping;
    // Attempts under way finish and are recorded; what is not sent stays queued.
    await Promise.all([...this.sends]);
    await this.recorder.drain();
    this.sender.close();
  }

  /**
   * Look for due deliveries soon (called after events were queued): within NUDGE_DELAY_MS, so
   * that the events queued meanwhile are claimed together rather than one query each.
   */
  nudge(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    if (this.soon) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.startPump();
    }, NUDGE_DELAY_MS);
  }

  private startPump(): void {
    if (!this.running || this.pumping) return;
    this.pumping = this.pump()
      .catch((error: unknown) => this.logger.error(`dispatch failed: ${String(error)}`))
      .finally(() => {
        this.pumping = undefined;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.startPump(), this.sleepMs);
          this.timer.unref();
        }
      });
  }

  /** Claims while there are free slots and due deliveries. */
  private async pump(): Promise<void> {
    // A pump that fails looks again after the usual poll.
    this.sleepMs = this.config.WEBHOOK_POLL_MS;
    while (this.running) {
      const free = this.config.WEBHOOK_CONCURRENCY - this.inFlight;
      if (free <= 0) {
        // A finishing attempt nudges again.
        this.again = false;
        if (this.soleWriter) this.sleepMs = SOLE_WRITER_POLL_MS;
        return;
      }
      const claimed = await this.deliveries.claim(this.dataSource, free, this.leaseMs);
      for (const delivery of claimed) this.start(delivery);
      if (claimed.length < free) {
        if (this.soleWriter) this.sleepMs = await this.untilNextDue();
        return;
      }
    }
  }

  /**
   * A sole writer's sleep: while attempts are in flight, their ends nudge; otherwise until the
   * earliest pending delivery falls due.
   */
  private async untilNextDue(): Promise<number> {
    if (this.inFlight > 0) return SOLE_WRITER_POLL_MS;
    return soleWriterSleepMs(await this.deliveries.nextDueAt(this.dataSource), Date.now());
  }

  private start(delivery: ClaimedDelivery): void {
    this.inFlight++;
    const send: Promise<void> = this.attempt(delivery)
      .catch((error: unknown) =>
        // Not recorded: the lease runs out and the delivery is due again.
        this.logger.error(`delivery ${delivery.id}: ${String(error)}`),
      )
      .finally(() => {
        this.inFlight--;
        this.sends.delete(send);
        this.nudge();
      });
    this.sends.add(send);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = new Date();
    const body = `{"type":${JSON.stringify(delivery.event_type)},"timestamp":${JSON.stringify(
      delivery.event_time.toISOString(),
    )},"sequence":${delivery.sequence},"data":${delivery.data}}`;
    const secrets = [delivery.secret];
    if (
      delivery.previous_secret &&
      delivery.previous_secret_expires_at &&
      delivery.previous_secret_expires_at > attemptedAt
    )
      secrets.push(delivery.previous_secret);
    const headers = signedHeaders(delivery.webhook_id, attemptedAt, body, secrets);
    const outcome = await this.sender.send(delivery.url, headers, body);
    const firstAttemptAt = delivery.first_attempt_at ?? attemptedAt;
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const next = delivered
      ? null
      : nextAttemptAt(
          this.policy,
          delivery.attempts + 1,
          firstAttemptAt,
          new Date(),
          outcome.retryAfterMs,
        );
    if (!delivered && !next)
      this.logger.warn(
        `delivery ${delivery.id} to endpoint ${delivery.endpoint_id} failed for the whole retry schedule: the endpoint is disabled`,
      );
    await this.recorder.submit([
      {
        deliveryId: delivery.id,
        attemptedAt,
        status: outcome.status,
        durationMs: outcome.durationMs,
        error: outcome.error,
        outcome: delivered
          ? WebhookDeliveryStatus.Delivered
          : next
            ? WebhookDeliveryStatus.Pending
            : WebhookDeliveryStatus.Failed,
        nextAttemptAt: next,
        firstAttemptAt,
      },
    ]);
  }
}
