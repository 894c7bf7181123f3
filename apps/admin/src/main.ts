import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeyRole, ApiKeyService, gatewayDatabase } from '@consign/gateway';
import { PlatformModule, loadConfig, runMain } from '@consign/platform';

const USAGE = `Usage: npm run admin -- <command>

  merchant create --name <name> [--role merchant|operator]
      Creates a merchant and its first API key; prints both.
  key create --merchant <id> [--role merchant|operator]
      Issues another API key for a merchant.
  key revoke <api-key>
      Revokes a key (gateways forget it within 30 seconds).

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

/** Creates merchants and API keys: the operator's side of authentication. */
runMain('consign-admin', async () => {
  const args = process.argv.slice(2);
  const command = args.slice(0, 2).join(' ');
  if (!['merchant create', 'key create', 'key revoke'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 64;
    return;
  }
  // The admin tool only touches the gateway's own schema; it never needs the broker.
  const config = loadConfig({ ...process.env, KAFKA_BROKERS: '' });

  @Module({
    imports: [
      PlatformModule.forRoot({ config, appName: 'consign-admin', requestsReplies: false }),
      gatewayDatabase.module,
    ],
    providers: [ApiKeyService],
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
    } else {
      const key = args[2];
      if (!key) throw new UsageError('the key to revoke is required');
      if (!(await keys.revokeKey(key))) throw new UsageError('no such key');
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
