import { ApiKeyRole } from '@consign/gateway';
import { databaseTargetOf, runMain } from '@consign/platform';
import { loadConfig } from '@consign/config';
import { replayDeadLetterTopic } from '@consign/messaging';
import { ADAPTER_TOPICS, EVENT_TOPICS, isCarrierCode } from '@consign/contracts';
import { AdminBackend, UsageError } from './admin-backend';
import { DirectAdminBackend } from './direct-backend';
import { HttpAdminBackend } from './http-backend';
import { migrateAll } from './migrate';

const USAGE = `Usage: npm run admin -- [--url <gateway URL> --admin-key <key>] <command>

  migrate
      Creates every service's schema and applies its pending migrations (the deployment's
      one-shot migration step; services also migrate at start, under the same lock).
  merchant create --name <name> [--role merchant|operator]
      Creates a merchant and its first API key; prints both.
  key create --merchant <id> [--role merchant|operator]
  key create --role admin
      Issues another API key for a merchant, or an admin key (the admin API's).
  key revoke <api-key>
      Revokes a key: every gateway refuses it within a couple of seconds.
  carrier key create --carrier <code>
      Issues a carrier's credential for its webhook (POST /2026-05/cloud/carrier/<code>/events).
  carrier key revoke <credential>
      Revokes a carrier's credential: every gateway refuses it within a couple of seconds.
  stock reconcile [--merchant <id>]   (with --url and --admin-key)
      Reconciles stock reservations with their orders now (docs/operations.md); prints what it
      released, consumed, reported and recounted.
  dlt replay <topic> [--limit <n>]
      Produces the messages of <topic>.dlt not replayed before back to <topic> (needs
      KAFKA_BROKERS); prints how many. Fix the cause first: one that fails again returns to the DLT.

With --url and --admin-key (or CONSIGN_URL and CONSIGN_ADMIN_KEY), the merchant, key and carrier
commands go through the running platform's admin API (/2026-05/cloud/admin): the way to manage a
live platform, whatever its database. Without them they use the database of the platform's
configuration (DATABASE_URL, or the embedded database under DATA_DIR); an embedded database that a
running process has open is refused, having changed nothing: use --url then.`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

/** The arguments without a global option and its value. */
function without(args: string[], name: string): string[] {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? [...args.slice(0, index), ...args.slice(index + 2)] : args;
}

function roleOf(args: string[], allowed: readonly ApiKeyRole[]): ApiKeyRole {
  const role = option(args, 'role') ?? ApiKeyRole.Merchant;
  if (!(allowed as readonly string[]).includes(role))
    throw new UsageError(`--role must be ${allowed.join(' or ')}`);
  return role as ApiKeyRole;
}

/** `dlt replay <topic> [--limit <n>]`: the DLT of a consumed topic back onto it. */
async function replayDlt(args: string[]): Promise<void> {
  try {
    const topic = (args[2] ?? '').replace(/\.dlt$/, '');
    const consumed: readonly string[] = [...EVENT_TOPICS, ...ADAPTER_TOPICS];
    if (!consumed.includes(topic))
      throw new UsageError(`<topic> must be a consumed topic, one of: ${consumed.join(', ')}`);
    const limitText = option(args, 'limit');
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
      throw new UsageError('--limit must be a whole number ≥ 1');
    const config = loadConfig();
    if (!config.KAFKA_BROKERS) throw new UsageError('KAFKA_BROKERS must be set to replay a DLT');
    const { replayed, pending } = await replayDeadLetterTopic({
      brokers: config.kafkaBrokers,
      topic,
      limit,
    });
    process.stdout.write(`topic=${topic}\nreplayed=${replayed}\npending=${pending - replayed}\n`);
  } catch (error: unknown) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`consign-admin: ${error.message}\n`);
    process.exitCode = 64;
  }
}

/** Runs one merchant, key or carrier command on a backend; prints `name=value` lines. */
async function manage(command: string, args: string[], admin: AdminBackend): Promise<void> {
  const print = (fields: Record<string, string | number | null>) =>
    process.stdout.write(
      Object.entries(fields)
        .map(([name, value]) => `${name}=${value ?? ''}\n`)
        .join(''),
    );
  if (command === 'merchant create') {
    const name = option(args, 'name');
    if (!name) throw new UsageError('--name is required');
    const issued = await admin.createMerchant(
      name,
      roleOf(args, [ApiKeyRole.Merchant, ApiKeyRole.Operator]),
    );
    print({ merchant_id: issued.merchantId, api_key: issued.apiKey });
  } else if (command === 'key create') {
    const role = roleOf(args, [ApiKeyRole.Merchant, ApiKeyRole.Operator, ApiKeyRole.Admin]);
    const merchantText = option(args, 'merchant');
    if (role === ApiKeyRole.Admin) {
      if (merchantText !== undefined) throw new UsageError('an admin key belongs to no merchant');
      print({ role, api_key: (await admin.createKey(null, role)).apiKey });
      return;
    }
    const merchantId = Number(merchantText);
    if (!Number.isSafeInteger(merchantId) || merchantId < 1)
      throw new UsageError('--merchant must be a merchant id');
    print({ merchant_id: merchantId, api_key: (await admin.createKey(merchantId, role)).apiKey });
  } else if (command === 'key revoke') {
    const key = args[2];
    if (!key) throw new UsageError('the key to revoke is required');
    await admin.revokeKey(key);
    process.stdout.write('revoked\n');
  } else if (command === 'carrier key create') {
    const carrier = option(args, 'carrier');
    if (!carrier || !isCarrierCode(carrier))
      throw new UsageError('--carrier must be a carrier code, e.g. DHL');
    print({ carrier, api_key: await admin.createCarrierKey(carrier) });
  } else {
    const key = args[3];
    if (!key) throw new UsageError('the credential to revoke is required');
    await admin.revokeCarrierKey(key);
    process.stdout.write('revoked\n');
  }
}

const COMMANDS = [
  'migrate',
  'merchant create',
  'key create',
  'key revoke',
  'carrier key create',
  'carrier key revoke',
  'dlt replay',
  'stock reconcile',
];

/** `stock reconcile [--merchant <id>]` through the admin API; one `name=value` line per finding. */
async function reconcileStock(args: string[], admin: HttpAdminBackend): Promise<void> {
  const merchantText = option(args, 'merchant');
  const merchantId = merchantText === undefined ? undefined : Number(merchantText);
  if (merchantId !== undefined && (!Number.isSafeInteger(merchantId) || merchantId < 1))
    throw new UsageError('--merchant must be a merchant id');
  const report = await admin.reconcileStock(merchantId);
  const lines = [
    `checked=${report.checked}`,
    ...report.reservations.map(
      (r) =>
        `${r.action}=merchant ${r.merchant_id} order ${r.order_id} (${r.order_status ?? 'unknown to order-service'})`,
    ),
    ...report.counts.map(
      (c) =>
        `recounted=merchant ${c.merchant_id} variant ${c.variant_id} at ${c.warehouse_code}: reserved ${c.reserved_before} -> ${c.reserved_after}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Merchants, API keys and carrier credentials: the operator's side of authentication. */
runMain('consign-admin', async () => {
  const all = process.argv.slice(2);
  const url = option(all, 'url') ?? process.env.CONSIGN_URL;
  const adminKey = option(all, 'admin-key') ?? process.env.CONSIGN_ADMIN_KEY;
  const args = without(without(all, 'url'), 'admin-key');
  const command = args[0] === 'carrier' ? args.slice(0, 3).join(' ') : args.slice(0, 2).join(' ');
  if (!COMMANDS.includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 64;
    return;
  }
  if (command === 'dlt replay') {
    await replayDlt(args);
    return;
  }
  // The other commands only touch the database; they never need the broker.
  const config = loadConfig({ ...process.env, KAFKA_BROKERS: '' });
  if (command === 'migrate') {
    for (const { schema, applied } of await migrateAll(databaseTargetOf(config)))
      process.stdout.write(`${schema}: ${applied} migrations applied\n`);
    return;
  }
  let admin: AdminBackend | undefined;
  try {
    if (url !== undefined || adminKey !== undefined) {
      if (!url || !adminKey)
        throw new UsageError(
          '--url and --admin-key go together (or CONSIGN_URL and CONSIGN_ADMIN_KEY)',
        );
      const api = new HttpAdminBackend(url, adminKey);
      admin = api;
      if (command === 'stock reconcile') return await reconcileStock(args, api);
    } else if (command === 'stock reconcile') {
      throw new UsageError('stock reconcile runs on the live platform: give --url and --admin-key');
    } else {
      admin = await DirectAdminBackend.open(config);
    }
    await manage(command, args, admin);
  } catch (error: unknown) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`consign-admin: ${error.message}\n`);
    process.exitCode = 64;
  } finally {
    await admin?.close();
  }
});
