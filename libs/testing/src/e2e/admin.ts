import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './processes';

const run = promisify(execFile);

async function admin(env: Record<string, string>, args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [join(REPO_ROOT, 'dist/apps/admin/src/main.js'), ...args],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    },
  );
  return stdout;
}

/** Issues a carrier credential with the admin CLI against a database; returns the key. */
export async function createCarrierKeyWithCli(
  env: Record<string, string>,
  carrier: string,
): Promise<string> {
  const stdout = await admin(env, ['carrier', 'key', 'create', '--carrier', carrier]);
  const key = /api_key=(\S+)/.exec(stdout)?.[1];
  if (!key) throw new Error(`unexpected admin output: ${stdout}`);
  return key;
}

/** Creates a merchant with the admin CLI against a database; returns its id and API key. */
export async function createMerchantWithCli(
  env: Record<string, string>,
  name: string,
): Promise<{ merchantId: number; apiKey: string }> {
  const stdout = await admin(env, ['merchant', 'create', '--name', name]);
  const merchantId = Number(/merchant_id=(\d+)/.exec(stdout)?.[1]);
  const apiKey = /api_key=(\S+)/.exec(stdout)?.[1];
  if (!merchantId || !apiKey) throw new Error(`unexpected admin output: ${stdout}`);
  return { merchantId, apiKey };
}
