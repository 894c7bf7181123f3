import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import {
  CarrierAllocationDto,
  CarrierCheckpointEvent,
  CarrierEventsResult,
} from '@consign/contracts';
import { MicroBatcher, Outbox } from '@consign/messaging';
import { concurrentTransactions } from '@consign/database';
import { labelTrackingDatabase } from './label-tracking.database';
import { LabelTrackingConfig } from './label-tracking.config';
import { CheckpointNormaliser } from './normalisation/normalise-checkpoint';
import { announceDeliveries } from './shipment-deliveries';
import { ShipmentRepository } from './shipment.repository';
import { announceTrackingUpdates } from './tracking-updates';
import {
  CheckpointRow,
  LockedAllocation,
  TrackingRepository,
  UnmatchedReason,
  UnmatchedRow,
  numberKey,
} from './tracking.repository';
import { DELIVERY_STATUSES, detailsOf, withoutDuplicates } from './tracking-state';

/** What became of one carrier event. */
export type CheckpointOutcome = 'recorded' | 'duplicate' | 'unmatched';

/** Retried as a whole: a deadlock, a serialisation failure, two writers allocating one number. */
const RETRIABLE = new Set(['40P01', '40001', '23505']);
const ATTEMPTS = 3;

type NumberPair = { courier: string; number: string };

/** What a transaction wrote, for the caller and for the checks after its commit. */
interface Written {
  outcomes: CheckpointOutcome[];
  /** Numbers it allocated to parcels. */
  allocated: NumberPair[];
  /** Numbers it parked events for (no parcel held them). */
  parked: NumberPair[];
}

interface Prepared {
  /** Position in the flush; -1 for a parked event adopted on allocation (already answered). */
  index: number;
  event: CarrierCheckpointEvent;
  labelId: number | undefined;
  eventTime: Date;
  eventCode: string;
  details: string | null;
}

export function summarise(outcomes: CheckpointOutcome[]): CarrierEventsResult {
  const count = (outcome: CheckpointOutcome) => outcomes.filter((o) => o === outcome).length;
  return {
    received: outcomes.length,
    recorded: count('recorded'),
    duplicates: count('duplicate'),
    unmatched: count('unmatched'),
  };
}

/**
 * Writes carrier events as checkpoints. Concurrent callers (the Kafka batch consumer, the
 * in-process bus, webhook batches) are coalesced into one transaction of a few set-based
 * statements; each caller's promise resolves after that transaction committed. In a flush:
 * allocations first (the latest by event time wins; a parked event waiting for the number is
 * adopted), then every event is matched to its parcel by label id or (courier, tracking number),
 * normalised, and inserted unless already recorded; the parcels' summaries are folded forward.
 * An event for no known parcel is parked, never dropped.
 */
@Injectable()
export class CheckpointIngestor {
  private readonly logger = new Logger('CheckpointIngestor');
  private readonly batcher: MicroBatcher<CarrierCheckpointEvent, CheckpointOutcome>;
  /** Transactions written at once: CHECKPOINT_WRITERS, capped by the connection pool. */
  readonly writers: number;

  constructor(
    @Inject(labelTrackingDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(labelTrackingDatabase.outbox) private readonly outbox: Outbox,
    private readonly normaliser: CheckpointNormaliser,
    config: LabelTrackingConfig,
    private readonly repository: TrackingRepository,
    private readonly shipments: ShipmentRepository,
  ) {
    this.writers = Math.min(config.CHECKPOINT_WRITERS, concurrentTransactions(dataSource));
    this.batcher = new MicroBatcher((events) => this.write(events), {
      maxItems: config.CHECKPOINT_BATCH_SIZE,
      maxDelayMs: config.CHECKPOINT_BATCH_DELAY_MS,
      maxConcurrent: this.writers,
    });
  }

  /** Resolves, in the events' order, once they are persisted. */
  ingest(events: CarrierCheckpointEvent[]): Promise<CheckpointOutcome[]> {
    return this.batcher.submit(events);
  }

  /** Waits for everything submitted so far (shutdown). */
  drain(): Promise<void> {
    return this.batcher.drain();
  }

  /**
   * Attaches the parked events waiting for these numbers, now that a parcel holds them (an
   * order's shipment): taken and written in one transaction, so none is lost on the way.
   */
  async adoptParked(pairs: NumberPair[]): Promise<number> {
    const { adopted, ...written } = await this.inTransaction(async (manager) => {
      const events = await this.repository.takeParked(manager, pairs);
      return { adopted: events.length, ...(await this.writeIn(manager, events)) };
    });
    await this.afterCommit(written);
    return adopted;
  }

  private async write(events: CarrierCheckpointEvent[]): Promise<CheckpointOutcome[]> {
    const written = await this.inTransaction((manager) => this.writeIn(manager, events));
    await this.afterCommit(written);
    return written.outcomes;
  }

  /**
   * A number allocated in one transaction and an event for it parked by another, concurrent one
   * (a second writer, or a shipment): neither saw the other's uncommitted row. So, once committed,
   * an allocating transaction takes the events parked for its numbers again, and a parking one
   * adopts its events whose number a parcel now holds. Of two such transactions the one that
   * commits last sees the other's commit in its check, so no event stays parked for a number a
   * parcel holds. The events are safely parked meanwhile: a failed check is only logged.
   */
  private async afterCommit(written: Written): Promise<void> {
    try {
      if (written.allocated.length > 0) await this.adoptParked(written.allocated);
      if (written.parked.length > 0) {
        const held = await this.repository.findByNumbers(this.dataSource.manager, written.parked);
        if (held.size > 0)
          await this.adoptParked(
            written.parked.filter((p) => held.has(numberKey(p.courier, p.number))),
          );
      }
    } catch (error: unknown) {
      this.logger.warn(
        `adopting parked carrier events after a commit: ${error instanceof Error ? error.message : String(error)}; they stay parked`,
      );
    }
  }

  private async inTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error: unknown) {
        const code = (error as QueryFailedError & { driverError?: { code?: string } }).driverError
          ?.code;
        if (
          !(error instanceof QueryFailedError) ||
          !RETRIABLE.has(code ?? '') ||
          attempt >= ATTEMPTS
        )
          throw error;
        this.logger.warn(`writing checkpoints: ${code}, retrying`);
      }
    }
  }

  /**
   * Writes the events and announces them; answers their outcomes, and the numbers
   * it allocated and parked events for (see afterCommit).
   */
  private async writeIn(
    manager: EntityManager,
    events: CarrierCheckpointEvent[],
  ): Promise<Written> {
    const prepared = events.map((event, index) => prepare(event, index));
    const byNumber = await this.repository.findByNumbers(manager, [
      ...prepared.flatMap((p) => (p.labelId === undefined ? [numberPair(p.event)] : [])),
      ...prepared.flatMap((p) => (p.event.allocation ? [allocationPair(p.event)] : [])),
    ]);
    const parcels = await this.repository.lockParcels(
      manager,
      [
        ...new Set([
          ...prepared.flatMap((p) => (p.labelId !== undefined ? [p.labelId] : [])),
          ...byNumber.values(),
        ]),
      ].sort((a, b) => a - b),
    );

    const { adopted, allocated } = await this.allocate(manager, prepared, parcels, byNumber);
    const outcomes: CheckpointOutcome[] = events.map(() => 'duplicate');
    const rows: (CheckpointRow & { index: number })[] = [];
    const unmatched: UnmatchedRow[] = [];
    for (const p of [...prepared, ...adopted]) {
      const trackingId = this.parcelOf(p, parcels, byNumber);
      if (trackingId === undefined) {
        unmatched.push({
          event: p.event,
          reason:
            p.labelId !== undefined
              ? UnmatchedReason.UnknownLabel
              : UnmatchedReason.UnknownTrackingNumber,
        });
        if (p.index >= 0) outcomes[p.index] = 'unmatched';
        continue;
      }
      rows.push({
        index: p.index,
        trackingId,
        eventTime: p.eventTime,
        carrierCode: p.event.carrier_code,
        eventCode: p.eventCode,
        details: p.details,
        description: p.event.description,
        status: this.normaliser.normalise(p.event.carrier_code, p.eventCode, p.event.description)
          .status,
      });
    }
    await this.repository.park(manager, unmatched);
    const parked = [
      ...new Map(
        unmatched
          .filter((u) => u.reason === UnmatchedReason.UnknownTrackingNumber)
          .map((u) => [
            numberKey(u.event.carrier_code, u.event.tracking_number as string),
            numberPair(u.event),
          ]),
      ).values(),
    ];

    const unique = withoutDuplicates(rows);
    const delivered = new Set<number>();
    const updated = new Set<number>();
    for (const { at, afterVoid } of await this.repository.recordCheckpoints(manager, unique)) {
      const row = unique[at];
      if (row.index >= 0) outcomes[row.index] = 'recorded';
      // A voided label's late events are kept and flagged, and change nothing else.
      if (afterVoid) continue;
      updated.add(row.trackingId);
      if (DELIVERY_STATUSES.includes(row.status)) delivered.add(row.trackingId);
    }
    await announceDeliveries(manager, this.outbox, this.shipments, [...delivered]);
    await announceTrackingUpdates(manager, this.outbox, this.repository, [...updated]);
    return { outcomes, allocated, parked };
  }

  /**
   * Applies the batch's allocations, oldest first so that the latest by event time stays: a
   * parcel takes an allocation when it has none, or when the event is not older than the one in
   * force. A number another parcel holds is refused. Returns the parked events the new numbers
   * adopt, and those numbers.
   */
  private async allocate(
    manager: EntityManager,
    prepared: Prepared[],
    parcels: LockedParcels,
    byNumber: Map<string, number>,
  ): Promise<{ adopted: Prepared[]; allocated: NumberPair[] }> {
    const allocating = prepared
      .filter((p) => p.event.allocation && isCarriersLabel(p, parcels))
      .sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime());
    if (allocating.length === 0) return { adopted: [], allocated: [] };
    const locked = await this.repository.readAllocations(manager, [
      ...new Set(allocating.map((p) => p.labelId as number)),
    ]);
    const changed = new Map<number, LockedAllocation>();
    for (const p of allocating) {
      const parcel = locked.get(p.labelId as number) as LockedAllocation;
      const { tracking_courier: courier, tracking_number: number } = p.event
        .allocation as CarrierAllocationDto;
      const key = numberKey(courier, number);
      const holder = byNumber.get(key);
      if (holder !== undefined && holder !== parcel.id) {
        this.logger.warn(
          `${courier} ${number} is allocated to parcel ${holder}; not to label ${parcel.id}`,
        );
        continue;
      }
      if (parcel.allocatedAt && p.eventTime < parcel.allocatedAt) continue;
      if (parcel.trackingCourier === courier && parcel.trackingNumber === number) continue;
      if (parcel.trackingCourier && parcel.trackingNumber)
        byNumber.delete(numberKey(parcel.trackingCourier, parcel.trackingNumber));
      Object.assign(parcel, {
        trackingCourier: courier,
        trackingNumber: number,
        allocatedAt: p.eventTime,
      });
      byNumber.set(key, parcel.id);
      changed.set(parcel.id, parcel);
    }
    await this.repository.saveAllocations(manager, [...changed.values()]);
    const allocated = [...changed.values()].map((p) => ({
      courier: p.trackingCourier as string,
      number: p.trackingNumber as string,
    }));
    const parked = await this.repository.takeParked(manager, allocated);
    return { adopted: parked.map((event) => prepare(event, -1)), allocated };
  }

  private parcelOf(
    p: Prepared,
    parcels: LockedParcels,
    byNumber: Map<string, number>,
  ): number | undefined {
    if (p.labelId !== undefined) return isCarriersLabel(p, parcels) ? p.labelId : undefined;
    return byNumber.get(numberKey(p.event.carrier_code, p.event.tracking_number as string));
  }
}

/** The parcels a flush locked (lockParcels), with each one's carrier code (null: none recorded). */
type LockedParcels = Map<number, string | null>;

/**
 * Whether the event names, by its label id, a label of its own carrier. A carrier reports for its
 * own labels only: an event naming another carrier's label (a DPD credential reporting label 32,
 * a DHL label) is unmatched, as one naming no label, and changes nothing of it. A parcel with no
 * carrier code recorded takes any.
 */
function isCarriersLabel(p: Prepared, parcels: LockedParcels): boolean {
  if (p.labelId === undefined) return false;
  const carrier = parcels.get(p.labelId);
  return carrier !== undefined && (carrier === null || carrier === p.event.carrier_code);
}

function prepare(event: CarrierCheckpointEvent, index: number): Prepared {
  return {
    index,
    event,
    // A null label_id is no label id (the contract allows it next to a tracking number).
    labelId: event.label_id ?? undefined,
    eventTime: new Date(event.event_time),
    eventCode: event.event_code.trim(),
    details: detailsOf(event.location),
  };
}

function numberPair(event: CarrierCheckpointEvent): NumberPair {
  return { courier: event.carrier_code, number: event.tracking_number as string };
}

function allocationPair(event: CarrierCheckpointEvent): NumberPair {
  const allocation = event.allocation as CarrierAllocationDto;
  return { courier: allocation.tracking_courier, number: allocation.tracking_number };
}
