import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DATABASE_HOST, DatabaseHost } from '@consign/database';
import { GatewayConfig } from '../gateway.config';
import { ApiKeyService } from './api-key.service';
import { ApiKeyRepository } from './api-key.repository';
import { CarrierCredentialService } from './carrier-credential.service';
import { gatewayDatabase } from './gateway.database';

/**
 * A change read again on later looks, so that one committed after a look that began before it
 * (a revocation's `now()` is its transaction's start) is still seen. Evicting twice is harmless.
 */
const OVERLAP_SECONDS = 10;

/**
 * Keeps every gateway process's credential caches true to the database: about once a second
 * (KEY_REVOCATION_POLL_MS) it reads the hashes of the API keys and carrier credentials revoked or
 * created since its last look (an indexed range on the time each last changed) and evicts them,
 * so that a key revoked by any process (another gateway, the admin API, the admin command on
 * PostgreSQL) is refused by every gateway within a second or two, and a key created elsewhere
 * is accepted even where it was tried (and refused) before. The request path is unchanged: a
 * cached key is still decided without a promise. Polling rather than LISTEN/NOTIFY: it works the
 * same on every PostgreSQL, costs one indexed query per second per gateway, and needs no
 * dedicated connection. On the embedded database it does not poll: only this process can write
 * there, and the admin API evicts each key or credential it issues or revokes.
 */
@Injectable()
export class RevocationWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RevocationWatcher');
  private timer?: NodeJS.Timeout;
  private looking?: Promise<void>;
  private since?: Date;
  private failing = false;

  constructor(
    @Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly keys: ApiKeyService,
    private readonly credentials: CarrierCredentialService,
    private readonly config: GatewayConfig,
    private readonly apiKeys: ApiKeyRepository,
    @Optional() @Inject(DATABASE_HOST) private readonly host?: DatabaseHost,
  ) {}

  /** A first look before the process serves: it learns the database's time. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.KEY_REVOCATION_POLL_MS === 0) return;
    // The embedded database: no other process can change a key while this one runs, and this
    // one's own changes (the admin API) evict what they change as they make it.
    if (this.host?.exclusive) return;
    await this.look();
    this.timer = setInterval(() => {
      this.looking ??= this.look().finally(() => (this.looking = undefined));
    }, this.config.KEY_REVOCATION_POLL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.looking;
  }

  /** One look: evicts what changed since the last one. Never throws (a failure is logged once). */
  async look(): Promise<void> {
    try {
      const changes = await this.apiKeys.changedSince(
        this.dataSource,
        // The first look only learns the database's time: the caches were empty before it.
        this.since ?? new Date(8.64e15),
        OVERLAP_SECONDS,
      );
      if (changes.keys) this.keys.forget(changes.keys);
      if (changes.credentials) this.credentials.forget(changes.credentials);
      // The first successful look knows nothing older: whatever was cached before it goes.
      if (!this.since) {
        this.keys.forgetAll();
        this.credentials.forgetAll();
      }
      this.since = changes.now;
      if (this.failing) this.logger.log('reading revoked keys again');
      this.failing = false;
    } catch (error: unknown) {
      if (!this.failing)
        this.logger.warn(
          `cannot read revoked keys (cached keys stay valid for at most 30 s): ${error instanceof Error ? error.message : String(error)}`,
        );
      this.failing = true;
    }
  }
}
