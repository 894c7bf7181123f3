import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrderEvent, OrderStatus } from '@consign/contracts';
import { Outbox } from '@consign/messaging';
import { PeriodicTask } from '@consign/core';
import { DATABASE_HOST, DatabaseHost, soleWriterSleepMs } from '@consign/database';
import { OrderConfig } from './order.config';
import { orderDatabase } from './order.database';
import { OrderRepository } from './order.repository';
import { orderStatusChanged } from './order-status-events';
import { OrderActor, assertTransition } from './order.transitions';

const BATCH = 100;
/** A sole writer wakes this long after an order's time, so that the order is past it (`<`). */
const PAST_DUE_MS = 10;

export function noAnswerReason(attempts: number): string {
  return `Stock reservation did not answer after ${attempts} attempt(s); release the order to try again.`;
}

/**
 * The order side of the stock saga never waits for good. A Draft order whose reservation has had
 * no answer for ORDER_RESERVATION_TIMEOUT_MS asks again with a new attempt number (catalog answers
 * an order it already reserved with that reservation, so a lost answer costs nothing), up to
 * ORDER_RESERVATION_RETRIES times; then it goes OnHold with the reason, for the merchant to
 * release or cancel. Safe with several replicas (rows claimed FOR UPDATE SKIP LOCKED) and
 * idempotent: an answer to an older attempt is ignored, as before. It looks every
 * ORDER_RESERVATION_CHECK_MS, or, on a database only this process writes, when the earliest Draft
 * order's time is up (see nextRunInMs).
 */
@Injectable()
export class ReservationWatchdog extends PeriodicTask {
  private readonly logger = new Logger('ReservationWatchdog');
  /** No other process writes the orders (DatabaseHost.exclusive: the embedded database). */
  private readonly soleWriter: boolean;

  constructor(
    @Inject(orderDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(orderDatabase.outbox) private readonly outbox: Outbox,
    private readonly config: OrderConfig,
    private readonly orders: OrderRepository,
    @Optional() @Inject(DATABASE_HOST) host?: Pick<DatabaseHost, 'exclusive'>,
  ) {
    super();
    this.soleWriter = host?.exclusive ?? false;
  }

  protected get intervalMs(): number {
    return this.config.ORDER_RESERVATION_CHECK_MS;
  }

  protected runOnce(): Promise<{ retried: number; held: number }> {
    return this.check();
  }

  /**
   * A sole writer sleeps until the earliest Draft order's time is up. An order becomes Draft, or is
   * asked again, with its request time set to now, so none falls due sooner than
   * ORDER_RESERVATION_TIMEOUT_MS after this look: that is the longest sleep, and nothing needs to
   * wake the watchdog. Another process's orders would need the poll.
   */
  protected override async nextRunInMs(): Promise<number> {
    if (!this.soleWriter) return this.config.ORDER_RESERVATION_CHECK_MS;
    const timeoutMs = this.config.ORDER_RESERVATION_TIMEOUT_MS;
    const due = await this.orders.nextUnansweredAt(this.dataSource, timeoutMs / 1000);
    return soleWriterSleepMs(due, Date.now(), { marginMs: PAST_DUE_MS, maxMs: timeoutMs });
  }

  protected reportFailure(message: string): void {
    this.logger.error(`check failed: ${message}`);
  }

  /** Asks again for, or holds, every Draft order past its time; returns what it did. */
  async check(): Promise<{ retried: number; held: number }> {
    const done = { retried: 0, held: 0 };
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const due = await this.orders.claimUnanswered(
          manager,
          this.config.ORDER_RESERVATION_TIMEOUT_MS / 1000,
          BATCH,
        );
        for (const order of due) {
          if (order.reservation_retries < this.config.ORDER_RESERVATION_RETRIES) {
            const attempt = order.reservation_attempt + 1;
            await this.orders.retryReservation(manager, order.id, attempt);
            await this.outbox.add(manager, OrderEvent.ReservationRequested, {
              merchantId: order.merchant_id,
              aggregateId: order.id,
              payload: {
                order_id: order.id,
                attempt,
                warehouse_code: order.warehouse_code,
                lines: await this.orders.lines(manager, order.id),
              },
            });
            done.retried++;
          } else {
            assertTransition(order.id, OrderStatus.Draft, OrderStatus.OnHold, OrderActor.Stock);
            const after = await this.orders.update(manager, order.id, {
              status: OrderStatus.OnHold,
              hold_reason: noAnswerReason(order.reservation_retries + 1),
            });
            // Announced like every other change, so webhook subscribers see the hold too.
            await this.outbox.addAll(manager, [
              orderStatusChanged(order.merchant_id, after, OrderStatus.Draft),
            ]);
            done.held++;
          }
        }
        return due.length;
      });
      if (batch < BATCH) break;
    }
    if (done.retried + done.held > 0) {
      this.logger.warn(
        `Draft orders without a reservation answer: asked again for ${done.retried}, held ${done.held}`,
      );
    }
    return done;
  }
}
