import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ApiKeyRole,
  ApiKeyService,
  CarrierCredentialService,
  gatewayDatabase,
} from '@consign/gateway';
import {
  PlatformModule,
  databaseTargetOf,
  loadConfig,
  replayDeadLetterTopic,
  runMain,
} from '@consign/platform';
import { ADAPTER_TOPICS, EVENT_TOPICS, isCarrierCode } from '@consign/contracts';
import { migrateAll } from './migrate';

const USAGE = `Usage: npm run admin -- <command>

  migrate
      Creates every service's schema and applies its pending migrations (the deployment's
      one-shot migration step; services also migrate at start, under the same lock).
  merchant create --name <name> [--role merchant|operator]
      Creates a merchant and its first API key; prints both.
  key create --merchant <id> [--role merchant|operator]
      Issues another API key for a merchant.
  key revoke <api-key>
      Revokes a key (gateways forget it within 30 seconds).
  carrier key create --carrier <code>
      Issues a carrier's credential for its webhook (POST /2026-05/cloud/carrier/<code>/events).
  carrier key revoke <credential>
      Revokes a carrier's credential (gateways forget it within 30 seconds).
  dlt replay <topic> [--limit <n>]
      Produces the messages of <topic>.dlt not replayed before back to <topic> (needs
      KAFKA_BROKERS); prints how many. Fix the cause first: one that fails again returns to the DLT.

Uses the same configuration as the platform (DATABASE_URL, or the embedded database under
DATA_DIR; stop the standalone app first, as one process owns an embedded database).`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

function roleOf(args: string[]): ApiKeyRole {
  const role = option(args, 'role') ?? ApiKeyRole.Merchant;
  if (!Object.values<string>(ApiKeyRole).includes(role))
    throw new UsageError(`--role must be merchant or operator`);
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

/** Creates merchants and API keys: the operator's side of authentication. */
runMain('consign-admin', async () => {
  const args = process.argv.slice(2);
  const command = args[0] === 'carrier' ? args.slice(0, 3).join(' ') : args.slice(0, 2).join(' ');
  const COMMANDS = [
    'migrate',
    'merchant create',
    'key create',
    'key revoke',
    'carrier key create',
    'carrier key revoke',
    'dlt replay',
  ];
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

  @Module({
    imports: [
      PlatformModule.forRoot({ config, appName: 'consign-admin', requestsReplies: false }),
      gatewayDatabase.module,
    ],
    providers: [ApiKeyService, CarrierCredentialService],
  })
  class AdminModule {}

  const app = await NestFactory.createApplicationContext(AdminModule, {
    logger: ['error', 'warn'],
  });
  try {
    const keys = app.get(ApiKeyService);
    if (command === 'merchant create') {
      const name = option(args, 'name');
      if (!name) throw new UsageError('--name is required');
      const merchant = await keys.createMerchant(name);
      const key = await keys.issueKey(merchant.id, roleOf(args));
      process.stdout.write(`merchant_id=${merchant.id}\napi_key=${key}\n`);
    } else if (command === 'key create') {
      const merchantId = Number(option(args, 'merchant'));
      if (!Number.isSafeInteger(merchantId) || merchantId < 1)
        throw new UsageError('--merchant must be a merchant id');
      if (!(await keys.findMerchant(merchantId))) throw new UsageError(`no merchant ${merchantId}`);
      process.stdout.write(
        `merchant_id=${merchantId}\napi_key=${await keys.issueKey(merchantId, roleOf(args))}\n`,
      );
    } else if (command === 'key revoke') {
      const key = args[2];
      if (!key) throw new UsageError('the key to revoke is required');
      if (!(await keys.revokeKey(key))) throw new UsageError('no such key');
      process.stdout.write('revoked\n');
    } else if (command === 'carrier key create') {
      const carrier = option(args, 'carrier');
      if (!carrier || !isCarrierCode(carrier))
        throw new UsageError('--carrier must be a carrier code, e.g. DHL');
      const key = await app.get(CarrierCredentialService).issue(carrier);
      process.stdout.write(`carrier=${carrier}\napi_key=${key}\n`);
    } else {
      const key = args[3];
      if (!key) throw new UsageError('the credential to revoke is required');
      if (!(await app.get(CarrierCredentialService).revoke(key)))
        throw new UsageError('no such credential');
      process.stdout.write('revoked\n');
    }
  } catch (error: unknown) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`consign-admin: ${error.message}\n`);
    process.exitCode = 64;
  } finally {
    await app.close();
  }
});
