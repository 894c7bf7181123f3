import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  ApiClient,
  Deployment,
  aLabel,
  aProduct,
  aVariant,
  anInbound,
  anOrder,
  eventually,
  startDistributed,
} from '@consign/testing';

/**
 * Issue 13 (must show 5): every app as its own process over the Kafka-protocol test broker, under
 * a load of order and label creates sent the way a careful client sends them (an Idempotency-Key
 * each, retried on 5xx, 409 and network errors until answered). Each process is SIGKILLed once and
 * SIGTERMed once, the broker is frozen once. Afterwards: no acknowledged write lost, none done
 * twice, no order left Draft, reserved stock equal to the live orders' lines, every outbox
 * drained. Then, with two order-service replicas, a rolling restart under load answers no error.
 * The 5xx count and the recovery time of each fault are printed (figures, not assertions: the
 * machine is shared).
 */

const WORKERS = 6;
/*
 * The rolling restart of two order-service replicas once answered one 5xx in 35 writes in a
 * clean-clone CI run on a saturated machine, and two 504s in 144 beside a CPU hog: the test broker
 * went silent for 10-14 s twice (while a replica joined), then expired every member of every group
 * at once; the gateway's reply group came back at the end of reply partitions it had never
 * committed, past the replies to two requests. The reply consumer now commits where each reply
 * partition starts as soon as it is assigned (PacedKafkaClient); since then it answered 0 errors in
 * five runs out of five, three of them beside a CPU hog (179-295 writes each), and runs every time.
 */
/** One request's retries give up after this long: a write still unanswered then is a failure. */
const GIVE_UP_MS = 120_000;
/**
 * The services, in two lanes faulted at the same time (one fault at a time in each lane), so
 * that the suite stays within about three minutes: a restarted service waits up to a consumer
 * session timeout (10 s) for its dead predecessor to leave its groups. The gateway (every
 * client's entry) and the broker are faulted alone.
 */
const SERVICE_LANES = [
  ['order-service', 'label-tracking-service', 'rating-service', 'webhook-dispatcher'],
  ['catalog-service', 'inbound-service', 'carrier-sandbox'],
] as const;
/** The schemas with an outbox (the gateway's has none). */
const SCHEMAS = ['catalog', 'orders', 'inbound', 'labels', 'carrier_sandbox', 'webhooks'];

interface Acknowledged {
  kind: 'order' | 'label';
  key: string;
  id: number;
}

/** What the clients saw during one fault. */
interface FaultReport {
  fault: string;
  errors: number;
  recoveryMs: number;
}

describe('kill suite (distributed)', () => {
  let deployment: Deployment;
  let api: ApiClient;
  let db: Client;
  let sku: string;
  let variantId: number;
  const STOCK = 1_000_000;

  beforeAll(async () => {
    deployment = await startDistributed({
      env: {
        // Long enough for a request to wait out a consumer group's rebalance (10 s session).
        BUS_TIMEOUT_MS: '20000',
        ORDER_RESERVATION_TIMEOUT_MS: '5000',
        ORDER_RESERVATION_RETRIES: '10',
        ORDER_RESERVATION_CHECK_MS: '500',
        CARRIER_SANDBOX_STEP_MS: '2000',
      },
    });
    if (!deployment.databaseUrl) throw new Error('the kill suite needs PostgreSQL');
    db = new Client({ connectionString: deployment.databaseUrl });
    await db.connect();
    api = deployment.client;
    const operator = await deployment.createOperatorKey();
    const variant = aVariant();
    const productId = (
      await api.post<number>('/2025-07/cloud/product', aProduct({ variants: [variant] }))
    ).body.data!;
    const product = await api.get<{ variants: { id: number; sku: string }[] }>(
      `/2025-07/cloud/product/${productId}`,
    );
    ({ id: variantId, sku } = product.body.data!.variants[0]);
    const inbound = await api.post<number>(
      '/2025-07/cloud/inbound',
      anInbound([{ sku_number: sku, quantity: STOCK }]),
    );
    const receipt = await operator.post(`/2025-07/cloud/inbound/${inbound.body.data}/receipt`, {
      items: [{ sku_number: sku, quantity: STOCK }],
      complete: true,
    });
    expect(receipt.body).toMatchObject({ code: 200 });
    await eventually(onHand, (n) => n === STOCK, { timeoutMs: 30_000 });
  });

  afterAll(async () => {
    await db?.end();
    await deployment?.stop();
  });

  async function onHand(): Promise<number> {
    const rows = await db.query<{ on_hand: number }>(
      `SELECT on_hand FROM catalog.stock_level WHERE variant_id = $1`,
      [variantId],
    );
    return rows.rows[0]?.on_hand ?? 0;
  }

  /** Clients creating orders and labels until stopped; what they saw, by time. */
  function startLoad() {
    const acknowledged: Acknowledged[] = [];
    const errors: number[] = []; // times of 5xx answers and network errors
    /** What each of those errors was, for the report of a run that saw any. */
    const errorLog: string[] = [];
    const successes: number[] = [];
    /** The longest a write took, first attempt to acknowledgement (retries included). */
    let slowestMs = 0;
    const failures: string[] = [];
    let running = true;
    const send = async (kind: 'order' | 'label') => {
      const key = randomUUID();
      const body =
        kind === 'order'
          ? anOrder([{ sku_number: sku, quantity: 1 }], { reference: key })
          : aLabel({ reference: key });
      const path = kind === 'order' ? '/2025-07/cloud/order' : '/2026-05/cloud/label';
      const first = Date.now();
      const deadline = first + GIVE_UP_MS;
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        try {
          const response = await api.request<number>('POST', path, JSON.stringify(body), {
            'idempotency-key': key,
          });
          if (response.status === 200) {
            acknowledged.push({ kind, key, id: response.body.data! });
            successes.push(Date.now());
            slowestMs = Math.max(slowestMs, Date.now() - first);
            return;
          }
          if (response.status >= 500) {
            errors.push(Date.now());
            errorLog.push(
              `${new Date().toISOString()} ${kind} ${key} attempt ${attempt}: ${response.status} ${response.body.message}`,
            );
          } else if (response.status !== 409 && response.status !== 429) {
            failures.push(`${kind} ${key}: ${response.status} ${response.body.message}`);
            return;
          }
        } catch (error: unknown) {
          errors.push(Date.now()); // the gateway itself is down
          errorLog.push(
            `${new Date().toISOString()} ${kind} ${key} attempt ${attempt}: ${String(error)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
      failures.push(`${kind} ${key}: unanswered after ${GIVE_UP_MS} ms`);
    };
    const workers = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let i = 0; running; i++) await send((i + worker) % 4 === 0 ? 'label' : 'order');
    });
    return {
      acknowledged,
      errors,
      errorLog,
      successes,
      slowestMs: () => slowestMs,
      failures,
      async stop() {
        running = false;
        await Promise.all(workers);
      },
    };
  }

  const allReady = () =>
    eventually(
      () => deployment.processHealth!(),
      (all) => all.every((p) => p.exited === null && p.ready === 200),
      { timeoutMs: 90_000, intervalMs: 250 },
    );

  /**
   * Runs a fault, waits until the faulted process is ready again (restartService waits for it)
   * or, with `everyProcess`, until every process is, then until a write succeeded after that.
   * A 5xx counts for every fault whose window it falls in (the lanes overlap).
   */
  async function measure(
    load: ReturnType<typeof startLoad>,
    fault: string,
    inflict: () => Promise<void>,
    everyProcess = false,
  ): Promise<FaultReport> {
    const started = Date.now();
    await inflict();
    if (everyProcess) await allReady();
    const ready = Date.now();
    await eventually(
      async () => load.successes.some((t) => t > ready),
      (ok) => ok,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    const recovered = load.successes.find((t) => t > ready)!;
    return {
      fault,
      errors: load.errors.filter((t) => t >= started && t <= recovered).length,
      recoveryMs: recovered - started,
    };
  }

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db.query<{ n: string }>(sql, params)).rows[0].n);

  it('loses no acknowledged write, does none twice, leaves no order Draft and no stock astray', async () => {
    const load = startLoad();
    const reports: FaultReport[] = [];
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      await Promise.all(
        SERVICE_LANES.map(async (lane) => {
          for (const name of lane)
            reports.push(
              await measure(load, `${signal} ${name}`, () =>
                deployment.restartService!(name, signal),
              ),
            );
        }),
      );
      await allReady();
      reports.push(
        await measure(
          load,
          `${signal} api-gateway`,
          () => deployment.restartService!('api-gateway', signal),
          true,
        ),
      );
    }
    reports.push(
      await measure(
        load,
        'broker frozen 8 s',
        async () => {
          deployment.broker!.freeze();
          await new Promise((resolve) => setTimeout(resolve, 8000));
          deployment.broker!.thaw();
        },
        true,
      ),
    );
    const brokerEnded = deployment.broker!.exitStatus();
    if (brokerEnded)
      throw new Error(
        `the test broker died (${brokerEnded}` +
          `${deployment.broker!.deathCause() ? `, of ${deployment.broker!.deathCause()}` : ''}):\n` +
          deployment.logs(),
      );
    await load.stop();
    process.stdout.write(
      `kill suite: ${load.acknowledged.length} writes acknowledged\n` +
        reports
          .map((r) => `  ${r.fault}: ${r.errors} 5xx, recovered in ${r.recoveryMs} ms`)
          .join('\n') +
        '\n',
    );
    expect(load.failures).toEqual([]);

    // Settled: no order waits for its stock, and every outbox has published what it holds.
    await eventually(
      () => count(`SELECT count(*) AS n FROM orders."order" WHERE status = 'Draft'`),
      (n) => n === 0,
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    for (const schema of SCHEMAS)
      await eventually(
        () =>
          count(`SELECT count(*) AS n FROM "${schema}".outbox_event WHERE published_at IS NULL`),
        (n) => n === 0,
        { timeoutMs: 60_000, intervalMs: 500 },
      );

    const orders = load.acknowledged.filter((a) => a.kind === 'order');
    const labels = load.acknowledged.filter((a) => a.kind === 'label');
    const rows = async (table: string) =>
      (
        await db.query<{ id: string; reference: string }>(
          `SELECT id::text, reference FROM ${table} WHERE reference = ANY($1)`,
          [load.acknowledged.map((a) => a.key)],
        )
      ).rows;
    const byReference = (found: { id: string; reference: string }[]) => {
      const map = new Map<string, number[]>();
      for (const row of found) map.set(row.reference, [...(map.get(row.reference) ?? []), +row.id]);
      return map;
    };
    const orderRows = byReference(await rows('orders."order"'));
    const labelRows = byReference(await rows('labels.label'));
    // Lost: acknowledged and not there; duplicated: more than one record for one key.
    expect(orders.filter((o) => orderRows.get(o.key)?.[0] !== o.id)).toEqual([]);
    expect(labels.filter((l) => labelRows.get(l.key)?.[0] !== l.id)).toEqual([]);
    expect([...orderRows, ...labelRows].filter(([, ids]) => ids.length > 1)).toEqual([]);
    expect(
      await count(
        `SELECT count(*) AS n FROM (SELECT reference FROM orders."order" WHERE reference IS NOT NULL
           GROUP BY merchant_id, reference HAVING count(*) > 1) d`,
      ),
    ).toBe(0);

    // Every order holds one unit, reserved exactly once.
    expect(await count(`SELECT count(*) AS n FROM orders."order" WHERE status <> 'Approved'`)).toBe(
      0,
    );
    const stock = (
      await db.query<{ on_hand: number; reserved: number }>(
        `SELECT on_hand, reserved FROM catalog.stock_level WHERE variant_id = $1`,
        [variantId],
      )
    ).rows[0];
    expect(stock).toEqual({ on_hand: STOCK, reserved: orders.length });
    expect(
      await count(`SELECT count(*) AS n FROM catalog.stock_reservation WHERE status = 'reserved'`),
    ).toBe(orders.length);
  }, 240_000);

  it('answers no error while two order-service replicas restart one after the other under load', async () => {
    await deployment.addReplica!('order-service');
    await allReady();
    const load = startLoad();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = Date.now();
    await deployment.restartService!('order-service', 'SIGTERM', { replica: 0 });
    await allReady();
    await deployment.restartService!('order-service', 'SIGTERM', { replica: 1 });
    await allReady();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await load.stop();
    process.stdout.write(
      `rolling restart: ${load.acknowledged.length} writes, ${load.errors.length} errors, ` +
        `slowest write ${load.slowestMs()} ms, ${Date.now() - started} ms\n`,
    );
    if (load.errorLog.length > 0) {
      // Every process's output (access logs included) beside the errors, to find their cause.
      const file = join(tmpdir(), `consign-rolling-restart-${Date.now()}.log`);
      writeFileSync(file, `${load.errorLog.join('\n')}\n${deployment.logs()}`);
      process.stdout.write(`rolling restart errors, with every process's output: ${file}\n`);
    }
    expect(load.failures).toEqual([]);
    expect(load.errorLog).toEqual([]);
  }, 120_000);
});
