import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './processes';

const run = promisify(execFile);

/** The merchant the gateway creates on first start (a fresh database numbers it 1). */
export const BOOTSTRAP_MERCHANT_ID = 1;

/** Runs the built admin CLI against a database; returns its `key=value` output lines. */
async function admin(env: Record<string, string>, args: string[]): Promise<Map<string, string>> {
  const { stdout } = await run(
    process.execPath,
    [join(REPO_ROOT, 'dist/apps/admin/src/main.js'), ...args],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } },
  );
  return new Map(
    [...stdout.matchAll(/^(\w+)=(\S+)$/gm)].map((match) => [match[1], match[2]] as const),
  );
}

/** Creates a merchant with the admin CLI against a database; returns its id and API key. */
export async function createMerchantWithCli(
  env: Record<string, string>,
  name: string,
): Promise<{ merchantId: number; apiKey: string }> {
  const output = await admin(env, ['merchant', 'create', '--name', name]);
  const merchantId = Number(output.get('merchant_id'));
  const apiKey = output.get('api_key');
  if (!merchantId || !apiKey) throw new Error(`unexpected admin output: ${[...output]}`);
  return { merchantId, apiKey };
}

/** Issues another API key (e.g. an operator's) for a merchant with the admin CLI. */
export async function createKeyWithCli(
  env: Record<string, string>,
  merchantId: number,
  role: 'merchant' | 'operator',
): Promise<string> {
  const output = await admin(env, [
    'key',
    'create',
    '--merchant',
    String(merchantId),
    '--role',
    role,
  ]);
  const apiKey = output.get('api_key');
  if (!apiKey) throw new Error(`unexpected admin output: ${[...output]}`);
  return apiKey;
}

/** Issues a carrier credential with the admin CLI against a database; returns the credential. */
export async function createCarrierKeyWithCli(
  env: Record<string, string>,
  carrier: string,
): Promise<string> {
  const output = await admin(env, ['carrier', 'key', 'create', '--carrier', carrier]);
  const key = output.get('api_key');
  if (!key) throw new Error(`unexpected admin output: ${[...output]}`);
  return key;
}
