import {
  ApiKeyRole,
  ApiKeyView,
  CarrierCredentialView,
  CreatedMerchantView,
  IssuedApiKeyView,
  IssuedCarrierCredentialView,
  StockReconciliationReport,
} from '@consign/contracts';
import { AdminBackend, IssuedKey, UsageError } from './admin-backend';

const ADMIN_PATH = '/2026-05/cloud/admin';

interface Envelope<T> {
  code: number;
  message: string;
  data: T | null;
}

/**
 * The admin command through a running gateway's admin API (`--url` and `--admin-key`): what to
 * use against a live platform, whatever its database. A refusal of the API (4xx) is the
 * operator's to fix and ends as a UsageError with the API's message.
 */
export class HttpAdminBackend implements AdminBackend {
  private readonly base: string;

  constructor(
    url: string,
    private readonly adminKey: string,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--url must be the gateway's URL, e.g. http://localhost:3000`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UsageError('--url must be an http:// or https:// URL');
    this.base = parsed.origin + parsed.pathname.replace(/\/$/, '');
  }

  /** Stock reconciliation needs the running services: only through the admin API. */
  reconcileStock(merchantId?: number): Promise<StockReconciliationReport> {
    return this.call<StockReconciliationReport>(
      'POST',
      '/stock/reconcile',
      merchantId === undefined ? {} : { merchant_id: merchantId },
    );
  }

  async createMerchant(name: string, role: ApiKeyRole): Promise<IssuedKey> {
    const created = await this.call<CreatedMerchantView>('POST', '/merchant', { name, role });
    return { merchantId: created.merchant.id, apiKey: created.key.api_key };
  }

  async createKey(merchantId: number | null, role: ApiKeyRole): Promise<IssuedKey> {
    const issued = await this.call<IssuedApiKeyView>('POST', '/key', {
      role,
      ...(merchantId === null ? {} : { merchant_id: merchantId }),
    });
    return { merchantId: issued.merchant_id, apiKey: issued.api_key };
  }

  async revokeKey(apiKey: string): Promise<void> {
    await this.call<ApiKeyView>('POST', '/key/revoke', { api_key: apiKey });
  }

  async createCarrierKey(carrier: string): Promise<string> {
    const issued = await this.call<IssuedCarrierCredentialView>('POST', '/carrier-credential', {
      carrier_code: carrier,
    });
    return issued.credential;
  }

  async revokeCarrierKey(credential: string): Promise<void> {
    await this.call<CarrierCredentialView>('POST', '/carrier-credential/revoke', { credential });
  }

  async close(): Promise<void> {}

  private async call<T>(method: string, path: string, body: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${ADMIN_PATH}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.adminKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error: unknown) {
      throw new Error(
        `cannot reach ${this.base}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const text = await response.text();
    let envelope: Envelope<T>;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`${this.base} answered ${response.status} with ${text.slice(0, 200)}`);
    }
    if (response.status >= 400 && response.status < 500)
      throw new UsageError(`${response.status}: ${envelope.message}`);
    if (response.status !== 200 || envelope.data === null)
      throw new Error(`${this.base} answered ${response.status}: ${envelope.message}`);
    return envelope.data;
  }
}
