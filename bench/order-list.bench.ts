/**
 * Orders at scale, through the standalone gateway on PostgreSQL (docs/benchmarks.md):
 *   npm run bench:orders [-- --orders 100000 --seconds 8 --connections 10]
 *
 * Seeds one merchant's orders with bulk SQL (the seed is not what is measured), then measures with
 * autocannon the list endpoint's latency at the first, middle and last page, and create-order
 * throughput, then how long the stock saga takes to approve the created orders. Needs the
 * PostgreSQL server of the tests (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432);
 * works in a database of its own, dropped at the end.
 */
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { ApiClient, aProduct, anOrder } from '@consign/testing';
import { argNumber } from './bench-args';
import { startBenchApp } from './standalone-app';

const ORDERS = argNumber('orders', 100_000);
const SECONDS = argNumber('seconds', 8);
const CONNECTIONS = argNumber('connections', 10);
const PAGE_SIZE = 20;
const MERCHANT = 1;

async function seed(url: string, variantId: number): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  try {
    const address = JSON.stringify(anOrder([]).shipping_address);
    await client.query(
      `INSERT INTO orders."order" (merchant_id, status, reference, currency, totals_include_tax,
         shipping_cost, shipping_address, billing_address, has_service, service_code, inco_term,
         warehouse_code, issue_date, created_at)
       SELECT $1, 'Approved', 'SEED-' || g, 'EUR', true, 4.95, $2::jsonb, $2::jsonb, true,
         'PostNL-Standard', 'DAP', 'WH-NL-AMS', now(), now() - make_interval(secs => $3 - g)
       FROM generate_series(1, $3) g`,
      [MERCHANT, address, ORDERS],
    );
    await client.query(
      `INSERT INTO orders.order_line (order_id, line_no, sku_number, quantity, price, discount, tax)
       SELECT id, n, $2, n, 24.90, 1.50, 0.21 FROM orders."order", generate_series(1, 2) n
       WHERE merchant_id = $1`,
      [MERCHANT, String(variantId)],
    );
    await client.query(`INSERT INTO orders.order_count (merchant_id, total) VALUES ($1, $2)`, [
      MERCHANT,
      ORDERS,
    ]);
    // Stock for the create-order run: every order gets approved.
    await client.query(
      `INSERT INTO catalog.stock_level (variant_id, warehouse_code, merchant_id, on_hand)
       VALUES ($1, 'WH-NL-AMS', $2, 100000000)`,
      [variantId, MERCHANT],
    );
    await client.query('VACUUM ANALYZE orders."order"');
    await client.query('VACUUM ANALYZE orders.order_line');
    // Write the seed's dirty pages now rather than during the first measurement.
    await client.query('CHECKPOINT').catch(() => undefined);
  } finally {
    await client.end();
  }
  return Math.round(performance.now() - started);
}

async function drafts(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM orders."order" WHERE status = 'Draft'`,
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

function row(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

async function main(): Promise<void> {
  const standalone = await startBenchApp({
    postgres: true,
    dataDirPrefix: 'bench',
    // rating-service is not part of this branch; see README, reference data.
    env: { REFERENCE_DATA_CHECK: 'off' },
  });
  const { base, apiKey, databaseUrl: url } = standalone;
  try {
    const api = new ApiClient(base, apiKey);
    const product = await api.post<number>('/2025-07/cloud/product', aProduct());
    const variantId = (
      await api.get<{ variants: { id: number }[] }>(`/2025-07/cloud/product/${product.body.data}`)
    ).body.data!.variants[0].id;
    const seedMs = await seed(url, variantId);
    const headers = { authorization: `Bearer ${apiKey}` };

    const lastPage = Math.ceil(ORDERS / PAGE_SIZE);
    const pages: [string, number][] = [
      ['first', 1],
      ['middle', Math.ceil(lastPage / 2)],
      ['last', lastPage],
    ];
    const lines: string[] = [];
    lines.push(
      `Consign orders benchmark: ${ORDERS} orders of one merchant, standalone on PostgreSQL, ` +
        `${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), node ${process.version}; seed ${seedMs} ms; ` +
        `load average ${loadavg()[0].toFixed(1)} at the start (other work on the machine)`,
      '',
      row(['GET /2025-07/cloud/order', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx']),
      row(['---', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const [label, page] of pages) {
      const path = `/2025-07/cloud/order?page=${page}&size=${PAGE_SIZE}`;
      const check = await api.get<{ total: number; list: unknown[] }>(path);
      if (check.body.data?.total !== ORDERS || check.body.data.list.length !== PAGE_SIZE)
        throw new Error(`unexpected page ${page}: ${JSON.stringify(check.body).slice(0, 200)}`);
      // Warm-up: JIT, connection pool, PostgreSQL's buffers.
      await autocannon({ url: base + path, headers, connections: CONNECTIONS, duration: 3 });
      for (const connections of [1, CONNECTIONS]) {
        const result = await autocannon({
          url: base + path,
          headers,
          connections,
          duration: SECONDS,
        });
        lines.push(
          row([
            `${label} page (${page})`,
            connections,
            Math.round(result.requests.average),
            result.latency.p50,
            result.latency.p99,
            result.non2xx + result.errors,
          ]),
        );
      }
    }

    const body = JSON.stringify(anOrder([{ sku_number: String(variantId), quantity: 1 }]));
    const before = Date.now();
    const created = await autocannon({
      url: `${base}/2025-07/cloud/order`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      connections: CONNECTIONS,
      duration: SECONDS,
    });
    const total = created.requests.total;
    let waiting = await drafts(url);
    while (waiting > 0) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      waiting = await drafts(url);
    }
    const sagaSeconds = (Date.now() - before) / 1000;
    lines.push(
      '',
      row(['POST /2025-07/cloud/order', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx']),
      row(['---', '---:', '---:', '---:', '---:', '---:']),
      row([
        `create (${total} orders in ${created.duration} s)`,
        CONNECTIONS,
        Math.round(created.requests.average),
        created.latency.p50,
        created.latency.p99,
        created.non2xx + created.errors,
      ]),
      '',
      `All ${total} created orders Approved by the stock saga ${sagaSeconds.toFixed(1)} s after the ` +
        `load started (${Math.round(total / sagaSeconds)} orders/s end to end).`,
    );
    lines.push(`Load average ${loadavg()[0].toFixed(1)} at the end.`);
    process.stdout.write(`\n${lines.join('\n')}\n`);
  } finally {
    await standalone.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
