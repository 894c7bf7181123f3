import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type {
  CreatedMerchantView,
  IssuedApiKeyView,
  IssuedCarrierCredentialView,
} from '@consign/contracts';
import { ApiClient } from './api-client';
import { REPO_ROOT } from './processes';

const run = promisify(execFile);

/** The merchant the gateway creates on first start (a fresh database numbers it 1). */
export const BOOTSTRAP_MERCHANT_ID = 1;

export const ADMIN_PATH = '/2026-05/cloud/admin';

export function newAdminKey(): string {
  return `csk_admin_test_${randomBytes(18).toString('base64url')}`;
}

function dataOf<T>(
  response: { status: number; body: { data: T | null; message: string } },
  what: string,
): T {
  if (response.status !== 200 || response.body.data === null)
    throw new Error(`${what}: ${response.status} ${response.body.message}`);
  return response.body.data;
}

/**
 * The platform's admin API as the scenarios use it (with the deployment's admin key): merchants,
 * keys and carrier credentials made while the platform runs, never by stopping it.
 */
export class AdminApi {
  constructor(readonly client: ApiClient) {}

  async createMerchant(name: string): Promise<{ merchantId: number; apiKey: string }> {
    const created = dataOf(
      await this.client.post<CreatedMerchantView>(`${ADMIN_PATH}/merchant`, { name }),
      'create merchant',
    );
    return { merchantId: created.merchant.id, apiKey: created.key.api_key };
  }

  async createKey(
    merchantId: number | null,
    role: 'merchant' | 'operator' | 'admin',
  ): Promise<IssuedApiKeyView> {
    return dataOf(
      await this.client.post<IssuedApiKeyView>(`${ADMIN_PATH}/key`, {
        role,
        ...(merchantId === null ? {} : { merchant_id: merchantId }),
      }),
      'issue key',
    );
  }

  async revokeKey(apiKey: string): Promise<void> {
    dataOf(await this.client.post(`${ADMIN_PATH}/key/revoke`, { api_key: apiKey }), 'revoke key');
  }

  async createCarrierKey(carrier: string): Promise<string> {
    return dataOf(
      await this.client.post<IssuedCarrierCredentialView>(`${ADMIN_PATH}/carrier-credential`, {
        carrier_code: carrier,
      }),
      'issue carrier credential',
    ).credential;
  }
}

/** Runs the built admin command; its exit code, output lines as `key=value`, and stderr. */
export async function runAdminCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; values: Map<string, string>; stdout: string; stderr: string }> {
  const outcome = await run(
    process.execPath,
    [join(REPO_ROOT, 'dist/apps/admin/src/main.js'), ...args],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  const values = new Map(
    [...outcome.stdout.matchAll(/^(\w+)=(\S+)$/gm)].map((match) => [match[1], match[2]] as const),
  );
  return { ...outcome, values };
}

/**
 * Issues a carrier credential with the admin command straight on a database (PostgreSQL, or an
 * embedded folder no process has open); returns the credential.
 */
export async function createCarrierKeyWithCli(
  env: Record<string, string>,
  carrier: string,
): Promise<string> {
  const { code, values, stderr } = await runAdminCli(env, [
    'carrier',
    'key',
    'create',
    '--carrier',
    carrier,
  ]);
  const key = values.get('api_key');
  if (code !== 0 || !key) throw new Error(`admin command failed (${code}): ${stderr}`);
  return key;
}
