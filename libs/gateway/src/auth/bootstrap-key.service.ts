import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, ConfigError } from '@consign/config';
import { GatewayConfig } from '../gateway.config';
import { ApiKeyRole } from '@consign/contracts';
import { ApiKeyService } from './api-key.service';

export const BOOTSTRAP_KEY_FILE = 'bootstrap-api-key';
export const BOOTSTRAP_ADMIN_KEY_FILE = 'bootstrap-admin-key';

export interface BootstrapResult {
  merchantId: number;
  /** The key to show the operator, when it is known to this process (given or saved). */
  apiKey?: string;
  generated: boolean;
}

/**
 * Makes sure the first merchant exists with a usable key: BOOTSTRAP_API_KEY when given; otherwise
 * a random key generated on first start, saved under DATA_DIR (mode 600) and shown again on later
 * starts of the same data directory.
 */
@Injectable()
export class BootstrapKeyService {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly keys: ApiKeyService,
    private readonly config: AppConfig,
    private readonly gateway: GatewayConfig,
  ) {}

  async ensureFirstMerchant(): Promise<BootstrapResult> {
    const existing = await this.keys.firstMerchant();
    const given = this.gateway.BOOTSTRAP_API_KEY || undefined;
    const file = join(resolve(this.config.DATA_DIR), BOOTSTRAP_KEY_FILE);
    if (!existing) {
      // The merchant and its key in one transaction: a first start that fails between the two
      // would leave a merchant without a key, and no key to show on the next start.
      const { merchant, key } = await this.keys.createMerchantWithKey(
        'Default merchant',
        ApiKeyRole.Merchant,
        given,
      );
      if (!given) this.save(file, key);
      return { merchantId: merchant.id, apiKey: key, generated: !given };
    }
    if (given) {
      if (!(await this.keys.hasKey(given)))
        await this.keys.issueKey(existing.id, ApiKeyRole.Merchant, given);
      return { merchantId: existing.id, apiKey: given, generated: false };
    }
    const saved = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
    return { merchantId: existing.id, apiKey: saved, generated: false };
  }

  /**
   * Makes sure an admin key exists (the admin API's): BOOTSTRAP_ADMIN_KEY when given; otherwise,
   * when no admin key exists yet, a random one generated, saved under DATA_DIR (mode 600) and
   * shown again on later starts of the same data directory.
   */
  async ensureAdminKey(): Promise<{ apiKey?: string; generated: boolean }> {
    const given = this.gateway.BOOTSTRAP_ADMIN_KEY;
    if (given && given === this.gateway.BOOTSTRAP_API_KEY)
      throw new ConfigError(['BOOTSTRAP_ADMIN_KEY must differ from BOOTSTRAP_API_KEY']);
    if (given) {
      if (!(await this.keys.hasKey(given)))
        // Two gateways starting at once with the same key: the second insert finds the first's.
        await this.keys.issueKey(null, ApiKeyRole.Admin, given).catch(async (error: unknown) => {
          if (!(await this.keys.hasKey(given))) throw error;
        });
      const principal = await this.keys.authenticate(given);
      if (principal?.role !== ApiKeyRole.Admin)
        throw new ConfigError([
          principal
            ? 'BOOTSTRAP_ADMIN_KEY is a merchant or operator key: give another'
            : 'BOOTSTRAP_ADMIN_KEY was revoked: give another',
        ]);
      return { apiKey: given, generated: false };
    }
    const file = join(resolve(this.config.DATA_DIR), BOOTSTRAP_ADMIN_KEY_FILE);
    if (await this.keys.hasAdminKey())
      return {
        apiKey: existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined,
        generated: false,
      };
    const key = await this.keys.issueKey(null, ApiKeyRole.Admin);
    this.save(file, key);
    return { apiKey: key, generated: true };
  }

  private save(file: string, key: string): void {
    try {
      mkdirSync(resolve(this.config.DATA_DIR), { recursive: true });
      writeFileSync(file, `${key}\n`, { mode: 0o600 });
    } catch (error: unknown) {
      this.logger.warn(
        `could not save the generated key under ${this.config.DATA_DIR}: ${String(error)}`,
      );
    }
  }
}
