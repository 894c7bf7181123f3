/*
 * A probe for the benchmarks, preloaded into the servers with
 *   NODE_OPTIONS="--require <repo>/dist/bench/probes/count-statements.js"
 * It counts the SQL statements each connection sends through node-postgres (PostgreSQL and the
 * embedded PGlite alike: both are driven by pg's Client), per application_name (one per service's
 * schema: consign-order, consign-catalog, ...), and among them the transactions opened (START
 * TRANSACTION / BEGIN). On SIGUSR2 it writes the counts so far, as JSON, to the file named by
 * CONSIGN_STATEMENT_COUNTS (written whole, then renamed). The benchmarks take two snapshots and
 * divide the difference by the requests made in between. It only counts: no timing is taken from
 * a run with it. With CONSIGN_STATEMENT_LOG set, it also appends every statement (connection and
 * the first 160 characters, one line each) to that file, to see which ones they are.
 */
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';

interface Counts {
  statements: number;
  transactions: number;
}

type Query = (this: PgClient, config: unknown, ...rest: unknown[]) => unknown;

interface PgClient {
  connectionParameters?: { application_name?: string };
}

const file = process.env.CONSIGN_STATEMENT_COUNTS;
const log = process.env.CONSIGN_STATEMENT_LOG;
const counts = new Map<string, Counts>();

function textOf(config: unknown): string {
  if (typeof config === 'string') return config;
  if (config && typeof config === 'object' && 'text' in config) return String(config.text);
  return '';
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pg = require('pg') as { Client: { prototype: { query: Query } } };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: PgClient, config, ...rest) {
  const name = this.connectionParameters?.application_name ?? '(unnamed)';
  let entry = counts.get(name);
  if (!entry) counts.set(name, (entry = { statements: 0, transactions: 0 }));
  entry.statements++;
  const text = textOf(config);
  if (/^\s*(START\s+TRANSACTION|BEGIN)\b/i.test(text)) entry.transactions++;
  if (log) appendFileSync(log, `${name}\t${text.replace(/\s+/g, ' ').slice(0, 160)}\n`);
  return query.call(this, config, ...rest);
};

if (file)
  process.on('SIGUSR2', () => {
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(counts)));
    renameSync(`${file}.tmp`, file);
  });
