import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './processes';

const run = promisify(execFile);

/** Creates a merchant with the admin CLI against a database; returns its id and API key. */
export async function createMerchantWithCli(
  env: Record<string, string>,
  name: string,
): Promise<{ merchantId: number; apiKey: string }> {
  const { stdout } = await run(
    process.execPath,
    [join(REPO_ROOT, 'dist/apps/admin/src/main.js'), 'merchant', 'create', '--name', name],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    },
  );
  const merchantId = Number(/merchant_id=(\d+)/.exec(stdout)?.[1]);
  const apiKey = /api_key=(\S+)/.exec(stdout)?.[1];
  if (!merchantId || !apiKey) throw new Error(`unexpected admin output: ${stdout}`);
  return { merchantId, apiKey };
}
