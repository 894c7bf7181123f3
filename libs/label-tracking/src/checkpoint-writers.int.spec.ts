import { DataSource } from 'typeorm';
import { CarrierCheckpointEvent } from '@consign/contracts';
import { TrackingRepository } from './tracking.repository';
import {
  LabelTrackingHarness,
  aCarrierEvent,
  startLabelTracking,
} from './testing/label-tracking.harness';
import { testDatabaseMode } from '@consign/testing';

/*
 * Two checkpoint writers at once (CHECKPOINT_WRITERS) on PostgreSQL. The embedded database
 * (PGlite, the tests' fallback when no PostgreSQL answers) has one connection, so the ingestor
 * runs one writer there: these tests then only check that.
 */
const onPostgres = testDatabaseMode() === 'postgres';
/**
 * Tests of two writers at once run on PostgreSQL only: the embedded database (PGlite) serialises
 * transactions, so the ingestor runs one writer there (the writer-count test checks that).
 */
const withTwoWriters = onPostgres ? it : it.skip;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Counts the transactions of a DataSource running at once, and all of them. */
function watchTransactions(dataSource: DataSource): { max: number; started: number } {
  const seen = { max: 0, started: 0 };
  let running = 0;
  const original = dataSource.transaction.bind(dataSource) as (
    work: (...args: unknown[]) => Promise<unknown>,
  ) => Promise<unknown>;
  jest.spyOn(dataSource, 'transaction').mockImplementation((async (
    work: (...args: unknown[]) => Promise<unknown>,
  ) => {
    running++;
    seen.started++;
    seen.max = Math.max(seen.max, running);
    try {
      return await original(work);
    } finally {
      running--;
    }
  }) as unknown as DataSource['transaction']);
  return seen;
}

/** A deterministic shuffle (a linear congruential generator), so a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const STEPS: [string, string][] = [
  ['PU', 'Shipment picked up'],
  ['PL', 'Processed at London - UK'],
  ['DF', 'Departed Facility in London - UK'],
  ['AR', 'Arrived at Delivery Facility in Berlin - Germany'],
  ['WC', 'With delivery courier'],
  ['OK', 'Delivered'],
];

/**
 * Each label's lifecycle: the allocation first; later steps alternately by label id and by the
 * allocated number (those may arrive before the allocation: parked, then adopted); every event
 * twice, once with its time written in another zone.
 */
function lifecycles(labelIds: number[]): CarrierCheckpointEvent[] {
  const events: CarrierCheckpointEvent[] = [];
  labelIds.forEach((labelId, n) => {
    STEPS.forEach(([code, description], step) => {
      const hour = String(10 + step).padStart(2, '0');
      const byNumber = step % 2 === 1;
      const base = {
        event_code: code,
        description,
        location: step === 5 ? 'Berlin, DE' : `Hub ${n}`,
        ...(byNumber ? { tracking_number: `W${labelId}` } : { label_id: labelId }),
        ...(step === 0
          ? { allocation: { tracking_courier: 'DHL', tracking_number: `W${labelId}` } }
          : {}),
      };
      events.push(
        aCarrierEvent({ ...base, event_time: `2026-05-02T${hour}:00:00Z` }),
        aCarrierEvent({
          ...base,
          event_time: `2026-05-02T${String(12 + step).padStart(2, '0')}:00:00+02:00`,
        }),
      );
    });
  });
  return events;
}

/** The tables the writers fill, with label ids replaced by their position in `labelIds`. */
/** The label holds its information_received, allocation and adopted checkpoints; none is parked. */
async function expectAdoptedNoneParked(h: LabelTrackingHarness, labelId: number): Promise<void> {
  const [{ checkpoints }] = await h.dataSource.query(
    `SELECT count(*)::int AS checkpoints FROM "labels"."checkpoint" WHERE tracking_id = $1`,
    [labelId],
  );
  const [{ parked }] = await h.dataSource.query(
    `SELECT count(*)::int AS parked FROM "labels"."unmatched_checkpoint"`,
  );
  expect({ checkpoints, parked }).toEqual({ checkpoints: 3, parked: 0 });
}

async function written(h: LabelTrackingHarness, labelIds: number[]) {
  const at = (id: unknown) => labelIds.indexOf(Number(id));
  const checkpoints = await h.dataSource.query(
    `SELECT tracking_id, event_time, status, carrier_code, event_code, details, description
       FROM "labels"."checkpoint" ORDER BY tracking_id, event_time, carrier_code, event_code`,
  );
  const tracking = await h.dataSource.query(
    `SELECT id, status, status_at, last_event_at, outbound_time, delivered_time, tracking_courier,
            tracking_number, allocated_at
       FROM "labels"."tracking" ORDER BY id`,
  );
  const unmatched = await h.dataSource.query(
    `SELECT count(*)::int AS n FROM "labels"."unmatched_checkpoint"`,
  );
  return {
    checkpoints: checkpoints.map((c: { tracking_id: number }) => ({
      ...c,
      tracking_id: at(c.tracking_id),
    })),
    tracking: tracking.map((t: { id: number; tracking_number: string | null }) => ({
      ...t,
      id: at(t.id),
      tracking_number: t.tracking_number?.replace(/\d+$/, (id) => `#${at(id)}`) ?? null,
    })),
    unmatched: unmatched[0].n as number,
  };
}

describe('two checkpoint writers', () => {
  afterEach(() => jest.restoreAllMocks());

  it('runs two writers on PostgreSQL and one on the embedded database', async () => {
    const h = await startLabelTracking({ CHECKPOINT_WRITERS: 2 });
    try {
      expect(h.ingestor.writers).toBe(onPostgres ? 2 : 1);
    } finally {
      await h.close();
    }
  });

  it('writes the same checkpoints and summaries as one writer, with overlapping parcels and duplicates', async () => {
    const settings = { CHECKPOINT_BATCH_SIZE: 4, CHECKPOINT_BATCH_DELAY_MS: 0 };
    const one = await startLabelTracking({ ...settings, CHECKPOINT_WRITERS: 1 });
    const two = await startLabelTracking({ ...settings, CHECKPOINT_WRITERS: 2 });
    try {
      const results = [];
      for (const h of [one, two]) {
        const labelIds: number[] = [];
        for (let i = 0; i < 12; i++) labelIds.push(await h.createLabel());
        const seen = watchTransactions(h.dataSource);
        const events = shuffled(lifecycles(labelIds), 7);
        const chunks: CarrierCheckpointEvent[][] = [];
        for (let i = 0; i < events.length; i += 3) chunks.push(events.slice(i, i + 3));
        const outcomes = (await Promise.all(chunks.map((c) => h.ingestor.ingest(c)))).flat();
        await h.ingestor.drain();
        jest.restoreAllMocks();
        expect(seen.max).toBe(h.ingestor.writers);
        expect(outcomes).toHaveLength(events.length);
        results.push(await written(h, labelIds));
      }
      // 12 labels: their information_received and 6 carrier checkpoints each, nothing parked.
      expect(results[0].checkpoints).toHaveLength(12 * 7);
      expect(results[0].unmatched).toBe(0);
      expect(results[0].tracking.every((t: { status: string }) => t.status === 'delivered')).toBe(
        true,
      );
      expect(results[1]).toEqual(results[0]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  withTwoWriters(
    'adopts an event parked while another writer allocated its number (allocation committing last)',
    async () => {
      const h = await startLabelTracking({ CHECKPOINT_WRITERS: 2, CHECKPOINT_BATCH_SIZE: 1 });
      try {
        const labelId = await h.createLabel();
        const allocationTaken = deferred();
        const commitAllocation = deferred();
        const take = TrackingRepository.prototype.takeParked;
        jest.spyOn(TrackingRepository.prototype, 'takeParked').mockImplementation(async function (
          this: TrackingRepository,
          manager,
          pairs,
        ) {
          const taken = await take.call(this, manager, pairs);
          if (pairs.some((p) => p.number === `R${labelId}`) && taken.length === 0) {
            // The allocating transaction has looked for parked events and found none; it
            // commits only once the event by number has been parked and committed.
            allocationTaken.resolve();
            await commitAllocation.promise;
          }
          return taken;
        });
        const allocation = h.ingestor.ingest([
          aCarrierEvent({
            label_id: labelId,
            event_code: 'PU',
            event_time: '2026-05-02T08:00:00Z',
            allocation: { tracking_courier: 'DHL', tracking_number: `R${labelId}` },
          }),
        ]);
        await allocationTaken.promise;
        await expect(
          h.ingestor.ingest([
            aCarrierEvent({ tracking_number: `R${labelId}`, event_time: '2026-05-02T09:00:00Z' }),
          ]),
        ).resolves.toEqual(['unmatched']);
        commitAllocation.resolve();
        await expect(allocation).resolves.toEqual(['recorded']);
        await expectAdoptedNoneParked(h, labelId);
      } finally {
        await h.close();
      }
    },
  );

  withTwoWriters(
    'adopts an event parked while another writer allocated its number (parking committing last)',
    async () => {
      const h = await startLabelTracking({ CHECKPOINT_WRITERS: 2, CHECKPOINT_BATCH_SIZE: 1 });
      try {
        const labelId = await h.createLabel();
        const parked = deferred();
        const commitParking = deferred();
        const park = TrackingRepository.prototype.park;
        jest.spyOn(TrackingRepository.prototype, 'park').mockImplementation(async function (
          this: TrackingRepository,
          manager,
          rows,
        ) {
          await park.call(this, manager, rows);
          if (rows.length > 0) {
            // Parked, not committed yet: the allocation runs and commits meanwhile.
            parked.resolve();
            await commitParking.promise;
          }
        });
        const byNumber = h.ingestor.ingest([
          aCarrierEvent({ tracking_number: `P${labelId}`, event_time: '2026-05-02T09:00:00Z' }),
        ]);
        await parked.promise;
        await expect(
          h.ingestor.ingest([
            aCarrierEvent({
              label_id: labelId,
              event_code: 'PU',
              event_time: '2026-05-02T08:00:00Z',
              allocation: { tracking_courier: 'DHL', tracking_number: `P${labelId}` },
            }),
          ]),
        ).resolves.toEqual(['recorded']);
        commitParking.resolve();
        await expect(byNumber).resolves.toEqual(['unmatched']);
        await expectAdoptedNoneParked(h, labelId);
      } finally {
        await h.close();
      }
    },
  );

  withTwoWriters('retries a transaction chosen as a deadlock victim, as a whole', async () => {
    const h = await startLabelTracking({ CHECKPOINT_WRITERS: 2 });
    const other = h.dataSource.createQueryRunner();
    try {
      const first = await h.createLabel();
      const second = await h.createLabel();
      await other.connect();
      await other.startTransaction();
      // This session waits long before looking for a deadlock, so the writer's session (one
      // second, the default) is the one that finds it and is cancelled.
      await other.query(`SET LOCAL deadlock_timeout = '60s'`);
      await other.query(`SELECT id FROM "labels"."tracking" WHERE id = $1 FOR UPDATE`, [second]);
      const seen = watchTransactions(h.dataSource);
      // The writer locks its parcels in id order: it holds the first and waits for the second.
      const writing = h.ingestor.ingest([
        aCarrierEvent({ label_id: first, event_time: '2026-05-02T08:00:00Z' }),
        aCarrierEvent({ label_id: second, event_time: '2026-05-02T08:00:00Z' }),
      ]);
      for (;;) {
        const [{ waiting }] = await h.dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (waiting > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // Now this session waits for the writer's first parcel: a deadlock.
      await other.query(`SELECT id FROM "labels"."tracking" WHERE id = $1 FOR UPDATE`, [first]);
      await other.commitTransaction();
      await expect(writing).resolves.toEqual(['recorded', 'recorded']);
      expect(seen.started).toBe(2);
      const [{ n }] = await h.dataSource.query(
        `SELECT count(*)::int AS n FROM "labels"."checkpoint" WHERE tracking_id = ANY($1::bigint[])`,
        [[first, second]],
      );
      expect(n).toBe(4);
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
      await h.close();
    }
  });
});
