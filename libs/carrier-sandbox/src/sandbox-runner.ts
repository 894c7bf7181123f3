import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { DataSource, EntityManager } from 'typeorm';
import { CarrierTopic, LabelCreatedEvent, ShipmentCreatedEvent } from '@consign/contracts';
import { BUS_CLIENT, CLOCK, Clock } from '@consign/platform';
import { CarrierSandboxConfig } from './carrier-sandbox.config';
import { carrierSandboxDatabase } from './carrier-sandbox.database';
import { carrierOfService } from './carrier-vocabulary';
import { SandboxParcel, eventOfStep, isLastStep, keyOf } from './sandbox-events';
import { SandboxScenario, parseScenarioWeights, scenarioOf } from './sandbox-script';

const PARCEL = '"carrier_sandbox"."sandbox_parcel"';
const LEASE_MS = 30_000;
const CLAIM = 200;

interface ParcelRecord {
  id: number;
  carrier_code: string;
  tracking_number: string | null;
  by_tracking_number: boolean;
  scenario: SandboxScenario;
  step: number;
  next_at: Date;
}

/**
 * Moves sandbox parcels through their scenarios: every tick it claims the parcels whose next step
 * is due (a lease, so several sandbox replicas share the work and a crashed one's parcels are
 * taken over), publishes each step's carrier event on `carrier.checkpoint.v1` (never inside a
 * transaction), then schedules the next step CARRIER_SANDBOX_STEP_MS later. A step published
 * twice is the same event, which label-tracking ignores.
 */
@Injectable()
export class SandboxRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CarrierSandbox');
  private readonly weights: [SandboxScenario, number][];
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<number>;

  constructor(
    @Inject(carrierSandboxDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(BUS_CLIENT) private readonly bus: ClientProxy,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly config: CarrierSandboxConfig,
  ) {
    this.weights = parseScenarioWeights(config.CARRIER_SANDBOX_SCENARIOS);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tickScheduled(), this.config.tickMs);
    this.timer.unref();
    this.logger.log(
      `playing ${this.config.CARRIER_SANDBOX_CARRIERS === '*' ? 'every carrier' : this.config.CARRIER_SANDBOX_CARRIERS}, a step every ${this.config.CARRIER_SANDBOX_STEP_MS} ms`,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
  }

  /** Takes on a new label (in the inbox transaction); false when its carrier is not played. */
  async adopt(manager: EntityManager, label: LabelCreatedEvent): Promise<boolean> {
    const carrier = label.carrier_code ?? carrierOfService(label.service_code);
    if (!this.config.plays(carrier)) return false;
    await manager.query(
      `INSERT INTO ${PARCEL} (id, carrier_code, tracking_number, scenario, next_at)
       VALUES ($1, $2, NULL, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [
        label.label_id,
        carrier,
        scenarioOf(label.label_id, this.weights),
        new Date(this.clock.now().getTime() + this.config.allocationDelayMs),
      ],
    );
    return true;
  }

  /** Takes on an order's shipment: its tracking number is known, its events name it. */
  async adoptShipment(manager: EntityManager, shipment: ShipmentCreatedEvent): Promise<boolean> {
    if (!this.config.plays(shipment.carrier_code)) return false;
    // A shipment of a label the sandbox already moves (the same parcel) keeps that lifecycle.
    await manager.query(
      `INSERT INTO ${PARCEL} (id, carrier_code, tracking_number, by_tracking_number, scenario, next_at)
       VALUES ($1, $2, $3, true, $4, $5) ON CONFLICT (id) DO NOTHING`,
      [
        shipment.tracking_id,
        shipment.carrier_code,
        shipment.tracking_number,
        scenarioOf(shipment.tracking_id, this.weights),
        new Date(this.clock.now().getTime() + this.config.allocationDelayMs),
      ],
    );
    return true;
  }

  /** Stops playing a parcel whose label was voided (a step already claimed may still go out). */
  async cancel(manager: EntityManager, labelId: number): Promise<void> {
    await manager.query(`UPDATE ${PARCEL} SET done = true WHERE id = $1`, [labelId]);
  }

  tickScheduled(): Promise<number> {
    this.ticking ??= this.tick()
      .catch((error: unknown) => {
        this.logger.warn(`tick failed: ${error instanceof Error ? error.message : error}`);
        return 0;
      })
      .finally(() => (this.ticking = undefined));
    return this.ticking;
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
    const rows: ParcelRecord[] = await this.dataSource.query(
      `WITH due AS (
         SELECT id FROM ${PARCEL}
          WHERE NOT done AND next_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
          ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE ${PARCEL} p SET locked_until = $2 FROM due WHERE p.id = due.id
         RETURNING p.id, p.carrier_code, p.tracking_number, p.by_tracking_number, p.scenario,
           p.step, p.next_at)
       SELECT * FROM claimed ORDER BY next_at, id`,
      [now, new Date(now.getTime() + LEASE_MS), CLAIM],
    );
    return rows.map((r) => ({
      id: r.id,
      carrierCode: r.carrier_code,
      trackingNumber: r.tracking_number,
      byTrackingNumber: r.by_tracking_number,
      scenario: r.scenario,
      step: r.step,
      nextAt: r.next_at,
    }));
  }

  private async advance(parcels: SandboxParcel[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${PARCEL} p
          SET step = a.step, next_at = a.next_at, done = a.done, locked_until = NULL,
              tracking_number = COALESCE(p.tracking_number, a.tracking_number)
         FROM json_to_recordset($1::json) AS a(id bigint, step int, next_at timestamptz,
           done boolean, tracking_number text)
        WHERE p.id = a.id`,
      [
        JSON.stringify(
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
        ),
      ],
    );
  }
}
