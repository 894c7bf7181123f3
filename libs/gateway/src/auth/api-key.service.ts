import * as crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { ApiKeyEntity, ApiKeyRole } from './api-key.entity';
import { MERCHANT_NAME_MAX, MerchantEntity } from './merchant.entity';
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

@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(@Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource) {}

  /**
   * The merchant and role of a key, or null for an unknown, malformed or revoked one. `hash` is
   * the key's SHA-256 when the caller has it already.
   */
  async authenticate(key: string, hash: string = hashApiKey(key)): Promise<Principal | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    const row = await this.dataSource.getRepository(ApiKeyEntity).findOne({
      where: { keyHash: hash },
      select: { merchantId: true, role: true, revokedAt: true },
    });
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

  async createMerchant(name: string): Promise<MerchantEntity> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > MERCHANT_NAME_MAX) {
      throw new Error(`merchant name must be 1 to ${MERCHANT_NAME_MAX} characters`);
    }
    return this.dataSource.getRepository(MerchantEntity).save({ name: trimmed });
  }

  async findMerchant(id: number): Promise<MerchantEntity | null> {
    return this.dataSource.getRepository(MerchantEntity).findOneBy({ id });
  }

  async firstMerchant(): Promise<MerchantEntity | null> {
    const [first] = await this.dataSource
      .getRepository(MerchantEntity)
      .find({ order: { id: 'ASC' }, take: 1 });
    return first ?? null;
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
  ): Promise<{ key: string; entity: ApiKeyEntity }> {
    if (!KEY_PATTERN.test(key))
      throw new Error('an API key must be 16 to 256 printable ASCII characters');
    if ((role === ApiKeyRole.Admin) !== (merchantId === null))
      throw new Error('an admin key belongs to no merchant; every other key to one');
    const repository = this.dataSource.getRepository(ApiKeyEntity);
    const entity = await repository.save(
      repository.create({ merchantId, keyHash: hashApiKey(key), prefix: key.slice(0, 12), role }),
    );
    this.cache.delete(hashApiKey(key));
    return { key, entity };
  }

  /** Whether an admin key that is not revoked exists. */
  async hasAdminKey(): Promise<boolean> {
    return this.dataSource
      .getRepository(ApiKeyEntity)
      .existsBy({ role: ApiKeyRole.Admin, revokedAt: IsNull() });
  }

  async hasKey(key: string): Promise<boolean> {
    return this.dataSource.getRepository(ApiKeyEntity).existsBy({ keyHash: hashApiKey(key) });
  }

  async revokeKey(key: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ApiKeyEntity)
      // The database's clock, which the gateways' revocation watchers compare with.
      .update({ keyHash: hashApiKey(key), revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    this.cache.delete(hashApiKey(key));
    return (result.affected ?? 0) > 0;
  }
}
