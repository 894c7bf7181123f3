import { Logger } from '@nestjs/common';
import type { Consumer } from 'kafkajs';

export interface SupervisorOptions {
  /** A consumer with no heartbeat and no group join for this long is restarted. Default 60 s. */
  stuckAfterMs?: number;
  /** How often the watchdog looks. Default 5 s. */
  checkEveryMs?: number;
  /** First wait before a restart; doubles with each failed restart, up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

const DEFAULTS: Required<SupervisorOptions> = {
  stuckAfterMs: 60_000,
  checkEveryMs: 5_000,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
};

/**
 * Exponential backoff with full jitter (a random wait between 0 and the exponential step, capped
 * at `maxBackoffMs`), so that the processes of a fleet do not reconnect to a recovering broker
 * in the same instant.
 */
export function restartDelayMs(attempt: number, options: SupervisorOptions = {}): number {
  const { initialBackoffMs, maxBackoffMs } = { ...DEFAULTS, ...options };
  const step = Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(attempt, 20));
  return Math.round(Math.random() * step);
}

/**
 * Keeps a kafkajs consumer consuming for as long as the process runs, whatever the broker does.
 *
 * kafkajs restarts a crashed consumer only when the error is retriable; after a non-retriable one
 * (e.g. a connection refused for longer than its retries, which it wraps as
 * KafkaJSNonRetriableError) the consumer stays stopped for good: a service that no longer
 * consumes, or a gateway that no longer hears replies and answers 504 to everything. And a
 * consumer can stay stuck in a rebalance after a broker freeze (no heartbeat, no join) without
 * crashing at all. The supervisor restarts the consumer in both cases (disconnect, connect, run
 * again through `rerun`), with exponential backoff and jitter, until it succeeds or the consumer
 * is released for shutdown. Readiness follows the consumer's own events meanwhile.
 */
export class ConsumerSupervisor {
  private readonly logger: Logger;
  private readonly options: Required<SupervisorOptions>;
  private lastAliveAt = Date.now();
  private restarting = false;
  private released = false;
  private attempt = 0;
  private readonly watchdog: NodeJS.Timeout;
  private readonly unsubscribe: (() => void)[];
  private retryTimer?: NodeJS.Timeout;

  constructor(
    readonly name: string,
    private readonly consumer: Consumer,
    private readonly rerun: () => Promise<void>,
    options: SupervisorOptions = {},
  ) {
    this.logger = new Logger(`ConsumerSupervisor:${name}`);
    this.options = { ...DEFAULTS, ...options };
    const alive = () => {
      this.lastAliveAt = Date.now();
    };
    const { events } = consumer;
    this.unsubscribe = [
      consumer.on(events.GROUP_JOIN, alive),
      consumer.on(events.HEARTBEAT, alive),
      consumer.on(events.CRASH, (event) => {
        if (event.payload.restart) return; // kafkajs restarts it itself
        this.logger.warn(
          `consumer crashed and kafkajs will not restart it (${event.payload.error.message}): restarting it`,
        );
        this.restartSoon();
      }),
    ];
    this.watchdog = setInterval(() => this.check(), this.options.checkEveryMs);
    this.watchdog.unref();
  }

  /** The consumer is being stopped on purpose: never restart it again. */
  release(): void {
    this.released = true;
    clearInterval(this.watchdog);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  private check(): void {
    if (this.released || this.restarting) return;
    const silentMs = Date.now() - this.lastAliveAt;
    if (silentMs < this.options.stuckAfterMs) return;
    this.logger.warn(`no heartbeat and no group join for ${silentMs} ms: restarting the consumer`);
    this.restartSoon();
  }

  private restartSoon(): void {
    if (this.released || this.restarting) return;
    this.restarting = true;
    const delay = restartDelayMs(this.attempt++, this.options);
    this.retryTimer = setTimeout(() => void this.restart(), delay);
    this.retryTimer.unref();
  }

  private async restart(): Promise<void> {
    if (this.released) return;
    try {
      await this.consumer.disconnect().catch(() => undefined);
      if (this.released) return;
      await this.consumer.connect();
      await this.rerun();
      this.logger.log(`consumer running again after ${this.attempt} restart attempt(s)`);
      this.attempt = 0;
      this.lastAliveAt = Date.now();
      this.restarting = false;
    } catch (error: unknown) {
      this.restarting = false;
      this.logger.warn(
        `restart attempt ${this.attempt} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.restartSoon();
    }
  }
}

const supervisors = new Map<Consumer, ConsumerSupervisor>();

/** Supervises a running consumer (see ConsumerSupervisor); `rerun` subscribes and runs it again. */
export function superviseConsumer(
  name: string,
  consumer: Consumer,
  rerun: () => Promise<void>,
  options?: SupervisorOptions,
): void {
  supervisors.get(consumer)?.release();
  supervisors.set(consumer, new ConsumerSupervisor(name, consumer, rerun, options));
}

/** Before a consumer is stopped on purpose (shutdown): it must stay stopped. */
export function releaseConsumer(consumer: Consumer): void {
  supervisors.get(consumer)?.release();
  supervisors.delete(consumer);
}
