import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { gatewayDatabase } from '../auth/gateway.database';
import { TrackingSecretRepository } from './tracking-secret.repository';

export type TrackedKind = 'label' | 'order';

export interface TrackedRecord {
  kind: TrackedKind;
  merchantId: number;
  id: number;
}

const KIND_CODE: Record<TrackedKind, string> = { label: 'l', order: 'o' };
const TOKEN = /^([lo])([0-9a-z]{1,13})-([0-9a-z]{1,13})-([A-Za-z0-9_-]{32})$/;

/**
 * Tokens of the public tracking pages: the record they name and an HMAC-SHA256 of it (192 bits,
 * base64url) under a key only the gateway knows, so a token cannot be guessed or made for another
 * record, and no token table is needed. The key is created once in the gateway's schema and
 * shared by every replica.
 */
@Injectable()
export class TrackingTokenService implements OnModuleInit {
  private key?: Buffer;

  constructor(
    @Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly secrets: TrackingSecretRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    const secret = await this.secrets.ensure(this.dataSource, randomBytes(32).toString('base64'));
    this.key = Buffer.from(secret, 'base64');
  }

  tokenFor(kind: TrackedKind, merchantId: number, id: number): string {
    const subject = `${KIND_CODE[kind]}${merchantId.toString(36)}-${id.toString(36)}`;
    return `${subject}-${this.mac(subject)}`;
  }

  /** The public page of a record, under `origin` (scheme, host and port). */
  urlFor(kind: TrackedKind, merchantId: number, id: number, origin: string): string {
    return `${origin}/track/${this.tokenFor(kind, merchantId, id)}`;
  }

  /** The record a token names, or null for anything not made by tokenFor. */
  parse(token: string): TrackedRecord | null {
    const match = TOKEN.exec(token);
    if (!match) return null;
    const subject = `${match[1]}${match[2]}-${match[3]}`;
    const expected = Buffer.from(this.mac(subject));
    const given = Buffer.from(match[4]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return {
      kind: match[1] === 'l' ? 'label' : 'order',
      merchantId: parseInt(match[2], 36),
      id: parseInt(match[3], 36),
    };
  }

  private mac(subject: string): string {
    if (!this.key) throw new Error('tracking tokens are not ready (module not initialised)');
    return createHmac('sha256', this.key).update(subject).digest('base64url').slice(0, 32);
  }
}
