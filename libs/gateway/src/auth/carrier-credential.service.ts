import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isCarrierCode } from '@consign/contracts';
import { hashApiKey } from './api-key.service';
import { CarrierCredentialRepository } from './carrier-credential.repository';
import { gatewayDatabase } from './gateway.database';

interface CacheEntry {
  carrierCode: string | null;
  expiresAt: number;
}

/** As API keys: the RevocationWatcher evicts what changed; the TTL bounds an unreadable database. */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 1_000;
const KEY_PATTERN = /^[\x21-\x7e]{16,256}$/;

export function generateCarrierKey(): string {
  return `csk_carrier_${randomBytes(24).toString('base64url')}`;
}

/** Carrier credentials: issued by the admin command, checked on the carrier webhook endpoint. */
@Injectable()
export class CarrierCredentialService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    @Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly repository: CarrierCredentialRepository,
  ) {}

  /** The carrier a key reports for, or null for an unknown, malformed or revoked one. */
  async authenticate(key: string): Promise<string | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const hash = hashApiKey(key);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.carrierCode;
    const row = await this.repository.carrierOf(this.dataSource, hash);
    const carrierCode = row && !row.revokedAt ? row.carrierCode : null;
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { carrierCode, expiresAt: now + CACHE_TTL_MS });
    return carrierCode;
  }

  /** Stores a new credential for a carrier and returns the key in clear, once. */
  async issue(carrierCode: string, key: string = generateCarrierKey()): Promise<string> {
    if (!isCarrierCode(carrierCode))
      throw new Error('a carrier code is capital letters, digits, - and _ (at most 32)');
    if (!KEY_PATTERN.test(key))
      throw new Error('a carrier key must be 16 to 256 printable ASCII characters');
    await this.repository.insert(this.dataSource, {
      carrierCode,
      keyHash: hashApiKey(key),
      prefix: key.slice(0, 16),
    });
    this.cache.delete(hashApiKey(key));
    return key;
  }

  /** Forgets what the cache knows of these credentials (revoked or created elsewhere). */
  forget(hashes: Iterable<string>): void {
    for (const hash of hashes) this.cache.delete(hash);
  }

  forgetAll(): void {
    this.cache.clear();
  }

  async revoke(key: string): Promise<boolean> {
    const revoked = await this.repository.revoke(this.dataSource, { keyHash: hashApiKey(key) });
    this.cache.delete(hashApiKey(key));
    return revoked > 0;
  }
}
