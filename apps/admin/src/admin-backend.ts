import { ApiKeyRole } from '@consign/contracts';

/** A command the operator got wrong (or that names nothing): exit 64 with its message. */
export class UsageError extends Error {}

export interface IssuedKey {
  /** The merchant the key acts for; null for an admin key. */
  merchantId: number | null;
  apiKey: string;
}

/**
 * What the admin command does to merchants, keys and carrier credentials, whether straight on the
 * database (the platform stopped, or on PostgreSQL) or through a running gateway's admin API.
 */
export interface AdminBackend {
  createMerchant(name: string, role: ApiKeyRole): Promise<IssuedKey>;
  createKey(merchantId: number | null, role: ApiKeyRole): Promise<IssuedKey>;
  /** Throws UsageError for an unknown (or already revoked) key. */
  revokeKey(apiKey: string): Promise<void>;
  createCarrierKey(carrier: string): Promise<string>;
  revokeCarrierKey(credential: string): Promise<void>;
  close(): Promise<void>;
}
