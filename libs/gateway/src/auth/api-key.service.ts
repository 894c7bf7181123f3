import * as crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeyRole } from '@consign/contracts';
import { Sql } from '@consign/database';
import { ApiKeyRecord, ApiKeyRepository } from './api-key.repository';
import { MERCHANT_NAME_MAX, Merchant, MerchantRepository } from './merchant.repository';
import { gatewayDatabase } from './gateway.database';

export interface Principal {
  /** The merchant account the key acts for; null for an admin key. */
  merchantId: number | null;
  role: ApiKeyRole;
}

interface CacheEntry {
  principal: Principal | null;
  expiresAt: number;
}

/**
 * Lookups are cached: one query saved per request matters (ARCHITECTURE.md). A revoked or newly
 * created key is evicted within about a second by the RevocationWatcher, which reads what changed
 * in the table; the time to live only bounds staleness while the database cannot be read.
 */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
const KEY_PATTERN = /^[\x21-\x7e]{16,256}$/;

/** SHA-256 of a key, in hex: what keys are stored and cached as. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** crypto.hash is the one-shot digest (Node.js ≥ 20.12): ≈ 1 µs against ≈ 3 µs for a Hash object. */
function sha256Hex(text: string): string {
  return crypto.hash('sha256', text, 'hex');
}

const KEY_PREFIXES: Record<ApiKeyRole, string> = {
  [ApiKeyRole.Merchant]: 'csk_',
  [ApiKeyRole.Operator]: 'csk_op_',
  [ApiKeyRole.Admin]: 'csk_admin_',
};

export function generateApiKey(role: ApiKeyRole = ApiKeyRole.Merchant): string {
  return KEY_PREFIXES[role] + crypto.randomBytes(24).toString('base64url');
}

/** Whether a string has the form of an API key (what is worth looking up at all). */
export function isApiKeyForm(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** A merchant's name as stored: trimmed, 1 to MERCHANT_NAME_MAX characters. */
function merchantName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MERCHANT_NAME_MAX)
    throw new Error(`merchant name must be 1 to ${MERCHANT_NAME_MAX} characters`);
  return trimmed;
}

@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    @Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeyRepository,
    private readonly merchants: MerchantRepository,
  ) {}

  /**
   * The merchant and role of a key, or null for an unknown, malformed or revoked one. `hash` is
   * the key's SHA-256 when the caller has it already.
   */
  async authenticate(key: string, hash: string = hashApiKey(key)): Promise<Principal | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    const row = await this.apiKeys.principalOf(this.dataSource, hash);
    const principal =
      row && !row.revokedAt ? { merchantId: row.merchantId ?? null, role: row.role } : null;
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { principal, expiresAt: now + CACHE_TTL_MS });
    return principal;
  }

  /**
   * What the cache knows of a key, without a promise: its principal (null for an unknown or
   * revoked key), or undefined when it must be looked up (authenticate). Only keys of the valid
   * form are ever cached, so a hit needs no pattern check.
   */
  cachedPrincipal(key: string, hash: string = hashApiKey(key)): Principal | null | undefined {
    const cached = this.cache.get(hash);
    return cached && cached.expiresAt > Date.now() ? cached.principal : undefined;
  }

  /**
   * A new merchant and its first key (given, or generated), in one transaction: a merchant is
   * never left without a key when the key cannot be stored, nor by a crash between the two.
   */
  async createMerchantWithKey(
    name: string,
    role: ApiKeyRole,
    key: string = generateApiKey(role),
  ): Promise<{ merchant: Merchant; key: string; record: ApiKeyRecord }> {
    const trimmed = merchantName(name);
    const { merchant, record } = await this.dataSource.transaction(async (sql) => {
      const created = await this.merchants.insert(sql, trimmed);
      return { merchant: created, record: await this.insertKey(sql, created.id, role, key) };
    });
    this.cache.delete(hashApiKey(key));
    return { merchant, key, record };
  }

  async findMerchant(id: number): Promise<Merchant | null> {
    return this.merchants.find(this.dataSource, id);
  }

  async firstMerchant(): Promise<Merchant | null> {
    return this.merchants.first(this.dataSource);
  }

  /** Forgets what the cache knows of these keys (revoked or created elsewhere). */
  forget(hashes: Iterable<string>): void {
    for (const hash of hashes) this.cache.delete(hash);
  }

  forgetAll(): void {
    this.cache.clear();
  }

  /**
   * Stores a key (given, or generated) for a merchant, or for no merchant when it is an admin
   * key, and returns it in clear, once.
   */
  async issueKey(
    merchantId: number | null,
    role: ApiKeyRole,
    key: string = generateApiKey(role),
  ): Promise<string> {
    return (await this.issue(merchantId, role, key)).key;
  }

  /** As issueKey, with the stored record. */
  async issue(
    merchantId: number | null,
    role: ApiKeyRole,
    key: string = generateApiKey(role),
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    const record = await this.insertKey(this.dataSource, merchantId, role, key);
    this.cache.delete(hashApiKey(key));
    return { key, record };
  }

  private insertKey(
    sql: Sql,
    merchantId: number | null,
    role: ApiKeyRole,
    key: string,
  ): Promise<ApiKeyRecord> {
    if (!KEY_PATTERN.test(key))
      throw new Error('an API key must be 16 to 256 printable ASCII characters');
    if ((role === ApiKeyRole.Admin) !== (merchantId === null))
      throw new Error('an admin key belongs to no merchant; every other key to one');
    return this.apiKeys.insert(sql, {
      merchantId,
      keyHash: hashApiKey(key),
      prefix: key.slice(0, 12),
      role,
    });
  }

  /** Whether an admin key that is not revoked exists. */
  async hasAdminKey(): Promise<boolean> {
    return this.apiKeys.activeAdminExists(this.dataSource);
  }

  async hasKey(key: string): Promise<boolean> {
    return this.apiKeys.exists(this.dataSource, hashApiKey(key));
  }

  async revokeKey(key: string): Promise<boolean> {
    const revoked = await this.apiKeys.revoke(this.dataSource, { keyHash: hashApiKey(key) });
    this.cache.delete(hashApiKey(key));
    return revoked > 0;
  }
}
