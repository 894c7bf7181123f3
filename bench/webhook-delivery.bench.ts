/**
 * Webhook delivery throughput and delay (docs/benchmarks.md):
 *   npm run bench:webhooks [-- --burst 20000 --one-order 2000 --seconds 10 --connections 8]
 *
 * The standalone on PostgreSQL, one merchant with one webhook endpoint subscribed to
 * order.status_changed, and a receiver in this process on loopback that verifies every signature
 * with the standardwebhooks library. Two runs:
 *  - burst: `--burst` order.status_changed events of as many orders committed at once in
 *    order-service's outbox (one bulk INSERT: the seed is not what is measured); deliveries per
 *    second from the first delivery to the last, and the delay as below.
 *  - one-order burst: `--one-order` events of one order committed at once: one aggregate's events
 *    are relayed and consumed one after another (their order is kept), so this is the slow case.
 *  - steady: orders created over HTTP for `--seconds` with `--connections` clients; each is two
 *    status changes (Draft, then OnHold from the stock saga). The delay of a delivery is its
 *    arrival at the receiver minus the event's time (taken in the transaction that committed
 *    the change): p50, p99 and max, and deliveries per second.
 * Needs the PostgreSQL server of the tests (TEST_DATABASE_URL); its own database, dropped at the end.
 * BENCH_APP_NODE_OPTIONS: NODE_OPTIONS for the app (e.g. to profile it).
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { ApiClient, WEBHOOK_TEST_ENV, WebhookReceiver, anOrder } from '@consign/testing';
import { argNumber } from './bench-args';
import { BenchApp, startBenchApp } from './standalone-app';

const BURST = argNumber('burst', 20_000);
const ONE_ORDER = argNumber('one-order', 2_000);
const SECONDS = argNumber('seconds', 10);
const CONNECTIONS = argNumber('connections', 8);

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function row(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Commits `count` order.status_changed events at once, as order-service's outbox holds them: of
 * `count` orders (each its own aggregate, the Kafka key), or all of one order.
 */
async function seedBurst(
  url: string,
  merchantId: number,
  order: unknown,
  count: number,
  oneOrder: boolean,
): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const ids = Array.from({ length: count }, () => randomUUID());
    await client.query(
      `INSERT INTO orders.outbox_event (event_id, topic, message_key, envelope)
       SELECT e, 'order.status_changed.v1', k,
         jsonb_build_object('event_id', e, 'merchant_id', $1::int, 'aggregate_id', k,
           'occurred_at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'payload', jsonb_build_object('order_id', k::int, 'previous_status', 'Draft',
             'status', 'OnHold', 'order', $2::jsonb || jsonb_build_object('id', k::int)))
       FROM unnest($3::uuid[]) WITH ORDINALITY AS u(e, i),
         LATERAL (SELECT CASE WHEN $4 THEN '1' ELSE (1000000 + i)::text END AS k) AS key`,
      [merchantId, JSON.stringify(order), ids, oneOrder],
    );
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const receiver = await new WebhookReceiver().start();
  let standalone: (BenchApp & { databaseUrl: string }) | undefined;
  try {
    standalone = await startBenchApp({
      postgres: true,
      dataDirPrefix: 'bench',
      env: {
        ...WEBHOOK_TEST_ENV,
        CARRIER_SANDBOX: 'off',
        // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a CPU profile of the app, written at its exit.
        ...(process.env.BENCH_APP_NODE_OPTIONS
          ? { NODE_OPTIONS: process.env.BENCH_APP_NODE_OPTIONS }
          : {}),
      },
    });
    const { base, apiKey, databaseUrl: url } = standalone;
    const api = new ApiClient(base, apiKey);
    const endpoint = await api.post<{ id: number; secret: string }>('/2026-05/cloud/webhook', {
      url: receiver.url('/bench'),
      event_types: ['order.status_changed'],
    });
    receiver.trust('/bench', endpoint.body.data!.secret);
    const orderBody = anOrder([{ sku_number: '999999', quantity: 1 }]);
    const first = await api.post<number>('/2025-07/cloud/order', orderBody);
    await until(() => receiver.received.length >= 2, 30_000);
    const order = (await api.get(`/2025-07/cloud/order/${first.body.data}`)).body.data;
    const lines: string[] = [
      `Consign webhook delivery benchmark: standalone on PostgreSQL, ${cpus().length} CPUs ` +
        `(${cpus()[0]?.model ?? '?'}), node ${process.version}, receiver on loopback in the ` +
        `benchmark process (verifying every signature); load average ${loadavg()[0].toFixed(1)} ` +
        'at the start (other work on the machine)',
      '',
      row([
        'run',
        'events',
        'deliveries/s',
        'delay p50 ms',
        'delay p99 ms',
        'max ms',
        'bad signatures',
      ]),
      row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
    ];
    const report = (label: string, from: number) => {
      const got = receiver.received.slice(from);
      const delays = got
        .map((r) => r.at - Date.parse((JSON.parse(r.body) as { timestamp: string }).timestamp))
        .sort((a, b) => a - b);
      const seconds = (got[got.length - 1].at - got[0].at) / 1000;
      lines.push(
        row([
          label,
          got.length,
          Math.round(got.length / seconds),
          percentile(delays, 50),
          percentile(delays, 99),
          delays[delays.length - 1],
          got.filter((r) => r.verifyError !== null).length,
        ]),
      );
    };

    // Steady: the real path, HTTP → order-service → outbox → dispatcher → receiver.
    let from = receiver.received.length;
    const created = await autocannon({
      url: `${base}/2025-07/cloud/order`,
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(orderBody),
      connections: CONNECTIONS,
      duration: SECONDS,
    });
    const expected = from + created['2xx'] * 2;
    await until(() => receiver.received.length >= expected, 120_000);
    report(
      `steady: ${created['2xx']} orders over HTTP in ${SECONDS} s, ${CONNECTIONS} clients`,
      from,
    );

    // Burst: everything committed at once, of many orders, then of one.
    from = receiver.received.length;
    await seedBurst(url, 1, order, BURST, false);
    await until(() => receiver.received.length >= from + BURST, 300_000);
    report(`burst: ${BURST} events of ${BURST} orders committed at once`, from);
    if (ONE_ORDER > 0) {
      from = receiver.received.length;
      await seedBurst(url, 1, order, ONE_ORDER, true);
      await until(() => receiver.received.length >= from + ONE_ORDER, 300_000);
      report(`one-order burst: ${ONE_ORDER} events of one order committed at once`, from);
    }

    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await standalone?.stop();
    await receiver.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
