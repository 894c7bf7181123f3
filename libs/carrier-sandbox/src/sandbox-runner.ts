import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { DataSource, EntityManager } from 'typeorm';
import { CarrierTopic, LabelCreatedEvent, ShipmentCreatedEvent } from '@consign/contracts';
import { BUS_CLIENT } from '@consign/bus';
import { CLOCK, Clock } from '@consign/core';
import {
  DATABASE_HOST,
  DatabaseHost,
  SOLE_WRITER_POLL_MS,
  afterCommit,
  soleWriterSleepMs,
} from '@consign/database';
import { CarrierSandboxConfig } from './carrier-sandbox.config';
import { carrierSandboxDatabase } from './carrier-sandbox.database';
import { carrierOfService } from './carrier-vocabulary';
import { SandboxParcel, eventOfStep, isLastStep, keyOf } from './sandbox-events';
import { SandboxScenario, parseScenarioWeights, scenarioOf } from './sandbox-script';
import { SandboxParcelRepository } from './sandbox-parcel.repository';

const LEASE_MS = 30_000;
const CLAIM = 200;

/**
 * Moves sandbox parcels through their scenarios: every tick it claims the parcels whose next step
 * is due (a lease, so several sandbox replicas share the work and a crashed one's parcels are
 * taken over), publishes each step's carrier event on `carrier.checkpoint.v1` (never inside a
 * transaction), then schedules the next step CARRIER_SANDBOX_STEP_MS later. A step published
 * twice is the same event, which label-tracking ignores. On a database only this process writes,
 * it ticks when an adoption commits and when the next step falls due, not every tick.
 */
@Injectable()
export class SandboxRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CarrierSandbox');
  private readonly weights: [SandboxScenario, number][];
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<number>;
  /**
   * No other process writes the parcels: one becomes due by this process's own adoption (which
   * wakes the runner once committed) or by the clock (a step's time, a lease's end), which the
   * runner sleeps until.
   */
  private readonly soleWriter: boolean;
  private stopped = true;
  /** Woken while a tick was under way: tick again when it ends. */
  private again = false;
  /** Wakes the runner (a sole writer) once a transaction that adopted a parcel commits. */
  private readonly wakeOnCommit = () => this.wake();

  constructor(
    @Inject(carrierSandboxDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(BUS_CLIENT) private readonly bus: ClientProxy,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly config: CarrierSandboxConfig,
    private readonly parcels: SandboxParcelRepository,
    @Optional() @Inject(DATABASE_HOST) host?: Pick<DatabaseHost, 'exclusive'>,
  ) {
    this.soleWriter = host?.exclusive ?? false;
    this.weights = parseScenarioWeights(config.CARRIER_SANDBOX_SCENARIOS);
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    if (this.soleWriter) {
      // Parcels left due by the last run are played at once.
      this.sleep(0);
    } else {
      this.timer = setInterval(() => void this.tickScheduled(), this.config.tickMs);
      this.timer.unref();
    }
    this.logger.log(
      `playing ${this.config.CARRIER_SANDBOX_CARRIERS === '*' ? 'every carrier' : this.config.CARRIER_SANDBOX_CARRIERS}, a step every ${this.config.CARRIER_SANDBOX_STEP_MS} ms`,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
  }

  /** Takes on a new label (in the inbox transaction); false when its carrier is not played. */
  async adopt(manager: EntityManager, label: LabelCreatedEvent): Promise<boolean> {
    const carrier = label.carrier_code ?? carrierOfService(label.service_code);
    if (!this.config.plays(carrier)) return false;
    await this.parcels.insertLabel(manager, {
      id: label.label_id,
      carrier,
      scenario: scenarioOf(label.label_id, this.weights),
      nextAt: new Date(this.clock.now().getTime() + this.config.allocationDelayMs),
    });
    this.adopted(manager);
    return true;
  }

  /** Takes on an order's shipment: its tracking number is known, its events name it. */
  async adoptShipment(manager: EntityManager, shipment: ShipmentCreatedEvent): Promise<boolean> {
    if (!this.config.plays(shipment.carrier_code)) return false;
    // A shipment of a label the sandbox already moves (the same parcel) keeps that lifecycle.
    await this.parcels.insertShipment(manager, {
      id: shipment.tracking_id,
      carrier: shipment.carrier_code,
      trackingNumber: shipment.tracking_number,
      scenario: scenarioOf(shipment.tracking_id, this.weights),
      nextAt: new Date(this.clock.now().getTime() + this.config.allocationDelayMs),
    });
    this.adopted(manager);
    return true;
  }

  /** Stops playing a parcel whose label was voided (a step already claimed may still go out). */
  async cancel(manager: EntityManager, labelId: number): Promise<void> {
    await this.parcels.finish(manager, labelId);
  }

  tickScheduled(): Promise<number> {
    this.ticking ??= this.tick()
      .catch((error: unknown) => {
        this.logger.warn(`tick failed: ${error instanceof Error ? error.message : error}`);
        return 0;
      })
      .then(async (published) => {
        if (this.soleWriter) await this.sleepUntilDue();
        return published;
      })
      .finally(() => {
        this.ticking = undefined;
        // Woken after the sleep was set: the adoption's parcel is played now.
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
    return this.ticking;
  }

  /** A sole writer wakes once the transaction that adopted a parcel commits. */
  private adopted(manager: EntityManager): void {
    if (!this.soleWriter) return;
    if (!afterCommit(manager, this.wakeOnCommit, this.wakeOnCommit)) this.wake();
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.ticking) this.again = true;
    else this.sleep(0);
  }

  private sleep(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tickScheduled();
    }, ms);
    this.timer.unref();
  }

  /** After a sole writer's tick: sleeps until the next parcel falls due (or ticks again if woken). */
  private async sleepUntilDue(): Promise<void> {
    let ms: number = SOLE_WRITER_POLL_MS;
    try {
      const due = await this.parcels.nextDueAt(this.dataSource);
      ms = soleWriterSleepMs(due, this.clock.now().getTime(), { marginMs: 5 });
    } catch (error: unknown) {
      this.logger.warn(
        `looking for the next due step failed: ${error instanceof Error ? error.message : error}`,
      );
      ms = this.config.tickMs;
    }
    if (this.stopped) return;
    if (this.again) {
      this.again = false;
      ms = 0;
    }
    this.sleep(ms);
  }

  /**
   * Publishes every due step, in rounds of at most 200 parcels, until none is due (a parcel
   * behind by several steps catches up, one step per round); returns how many it published.
   */
  async tick(): Promise<number> {
    let published = 0;
    for (;;) {
      const now = this.clock.now();
      const due = await this.claim(now);
      if (due.length === 0) return published;
      await Promise.all(
        due.map((parcel) => {
          const event = eventOfStep(parcel);
          return lastValueFrom(
            this.bus.emit(CarrierTopic.Checkpoint, { key: keyOf(parcel), value: event }),
            { defaultValue: undefined },
          );
        }),
      );
      await this.advance(due);
      published += due.length;
    }
  }

  private async claim(now: Date): Promise<SandboxParcel[]> {
    return this.parcels.claim(this.dataSource, now, new Date(now.getTime() + LEASE_MS), CLAIM);
  }

  private async advance(parcels: SandboxParcel[]): Promise<void> {
    await this.parcels.advance(
      this.dataSource,
      parcels.map((parcel) => {
        const event = eventOfStep(parcel);
        return {
          id: parcel.id,
          step: parcel.step + 1,
          next_at: new Date(parcel.nextAt.getTime() + this.config.CARRIER_SANDBOX_STEP_MS),
          done: isLastStep(parcel),
          tracking_number: event.allocation?.tracking_number ?? null,
        };
      }),
    );
  }
}
