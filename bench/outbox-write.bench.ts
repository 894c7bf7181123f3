/**
 * What writing one event to the outbox costs the app: `npm run bench:outbox-write` (see
 * docs/benchmarks.md).
 *
 *   npm run bench:outbox-write [-- --transactions 3000 --rounds 2 --databases embedded,postgres]
 *
 * Every command and every handled event that announces something writes its events through
 * Outbox.addAll inside its transaction (an order: three). This times, in the same run and in
 * alternating rounds, sequential transactions that each add one event of about 1 KB (an order's
 * status change), written two ways:
 *
 * - addAll:        Outbox.addAll, a plain INSERT … VALUES (what the services run);
 * - entity insert: TypeORM's `manager.insert` of the same row through the OutboxEventEntity (what
 *                  addAll ran before 32e856b), for comparison.
 *
 * It prints this process's CPU time and the wall time per transaction (the database's own CPU is
 * not in the first: on PostgreSQL it is another process; on the embedded database, PGlite runs in
 * this one). The embedded database is a temporary data folder; PostgreSQL (TEST_DATABASE_URL or
 * 127.0.0.1:5432) a database of its own, dropped at the end.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { DataSource, EntityManager } from 'typeorm';
import { OrderStatus, OrderStatusChangedEvent, OrderView } from '@consign/contracts';
import { DatabaseHost, DatabaseTarget } from '@consign/database';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { Outbox, resolveServiceDatabase } from '@consign/messaging';
import { anOrder, tempDir, databaseUrl, withAdminClient } from '@consign/testing';
import { argNumber, argText, median } from './bench-args';

const TRANSACTIONS = argNumber('transactions', 3000);
const ROUNDS = argNumber('rounds', 2);
const DATABASES = argText('databases', 'embedded,postgres').split(',');
const SCHEMA = 'bench_outbox';
const WARM_UP = 300;

type Variant = 'addAll' | 'entity insert';
type Write = (manager: EntityManager, orderId: number) => Promise<unknown>;

/** An order's status change as order-service announces it: the whole order, about 1 KB. */
const ORDER = anOrder([{ sku_number: 'BENCH-1', quantity: 2 }]);
const payloadOf = (orderId: number): OrderStatusChangedEvent => ({
  order_id: orderId,
  previous_status: OrderStatus.Draft,
  status: OrderStatus.OnHold,
  order: {
    ...ORDER,
    id: orderId,
    status: OrderStatus.OnHold,
    hold_reason: 'Not enough stock for BENCH-1 in WH-NL-AMS.',
    issue_date: new Date().toISOString(),
    created_at: new Date().toISOString(),
  } as unknown as OrderView,
});

async function openDatabase(
  kind: string,
): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (kind === 'embedded') {
    const dataDir = tempDir('outbox-bench');
    return {
      target: { kind: 'pglite', dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `consign_bench_outbox_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    target: { kind: 'postgres', url: databaseUrl(name), poolSize: 2 },
    drop: () =>
      withAdminClient((client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
}

/** `count` sequential transactions of one write each: µs of this process's CPU and of wall time per transaction. */
async function time(dataSource: DataSource, write: Write, count: number, from: number) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++)
    await dataSource.transaction((manager) => write(manager, from + i));
  const used = process.cpuUsage(cpu);
  return {
    cpu: (used.user + used.system) / count,
    wall: ((performance.now() - started) * 1000) / count,
  };
}

async function bench(kind: string): Promise<void> {
  const database = await openDatabase(kind);
  const host = new DatabaseHost(database.target, 'the outbox benchmark');
  try {
    const dataSource = await host.openServiceDataSource(
      resolveServiceDatabase({
        name: 'bench-outbox',
        schema: SCHEMA,
        entities: [],
        migrations: [],
      }),
    );
    const outbox = new Outbox(dataSource, new InProcessClient(new InProcessBroker()), SCHEMA);
    const writes: Record<Variant, Write> = {
      addAll: (manager, orderId) =>
        outbox.addAll(manager, [
          {
            topic: 'order.status_changed.v1',
            merchantId: 1,
            aggregateId: orderId,
            payload: payloadOf(orderId),
          },
        ]),
      'entity insert': (manager, orderId) =>
        manager.insert('OutboxEventEntity', {
          eventId: randomUUID(),
          topic: 'order.status_changed.v1',
          messageKey: String(orderId),
          envelope: {
            event_id: randomUUID(),
            merchant_id: 1,
            aggregate_id: String(orderId),
            occurred_at: new Date().toISOString(),
            payload: payloadOf(orderId),
          },
          headers: {},
          traceContext: null,
        }),
    };
    let next = 1;
    for (const write of Object.values(writes)) {
      await time(dataSource, write, WARM_UP, next);
      next += WARM_UP;
    }
    const results: Record<Variant, { cpu: number[]; wall: number[] }> = {
      addAll: { cpu: [], wall: [] },
      'entity insert': { cpu: [], wall: [] },
    };
    console.log(`\n| ${kind}: one event per transaction | round | CPU µs/tx | wall µs/tx |`);
    console.log('| --- | ---: | ---: | ---: |');
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternating order, so that drift on a shared machine hits both alike.
      const order: Variant[] =
        round % 2 ? ['addAll', 'entity insert'] : ['entity insert', 'addAll'];
      for (const variant of order) {
        const figures = await time(dataSource, writes[variant], TRANSACTIONS, next);
        next += TRANSACTIONS;
        results[variant].cpu.push(figures.cpu);
        results[variant].wall.push(figures.wall);
        console.log(
          `| ${variant} | ${round} | ${figures.cpu.toFixed(0)} | ${figures.wall.toFixed(0)} |`,
        );
      }
    }
    const cpu = (variant: Variant) => median(results[variant].cpu);
    const wall = (variant: Variant) => median(results[variant].wall);
    console.log(
      `\n${kind}: median CPU µs per transaction addAll / entity insert = ${(cpu('addAll') / cpu('entity insert')).toFixed(3)} (${cpu('addAll').toFixed(0)} / ${cpu('entity insert').toFixed(0)}); wall ${(wall('addAll') / wall('entity insert')).toFixed(3)} (${wall('addAll').toFixed(0)} / ${wall('entity insert').toFixed(0)})`,
    );
  } finally {
    await host.close();
    await database.drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `Consign outbox-write benchmark: ${TRANSACTIONS} transactions × ${ROUNDS} rounds per variant, ${cpus().length} CPUs, node ${process.version}; load average ${loadavg()[0].toFixed(1)} at the start`,
  );
  for (const kind of DATABASES) await bench(kind);
  console.log(`\nLoad average ${loadavg()[0].toFixed(1)} at the end.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
