import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@consign/platform';
import { ApiKeyRole } from './api-key.entity';
import { ApiKeyService } from './api-key.service';

export const BOOTSTRAP_KEY_FILE = 'bootstrap-api-key';

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
  ) {}

  async ensureFirstMerchant(): Promise<BootstrapResult> {
    const existing = await this.keys.firstMerchant();
    const merchant = existing ?? (await this.keys.createMerchant('Default merchant'));
    const given = this.config.BOOTSTRAP_API_KEY;
    if (given) {
      if (!(await this.keys.hasKey(given)))
        await this.keys.issueKey(merchant.id, ApiKeyRole.Merchant, given);
      return { merchantId: merchant.id, apiKey: given, generated: false };
    }
    const file = join(resolve(this.config.DATA_DIR), BOOTSTRAP_KEY_FILE);
    if (existing) {
      const saved = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
      return { merchantId: merchant.id, apiKey: saved, generated: false };
    }
    const key = await this.keys.issueKey(merchant.id, ApiKeyRole.Merchant);
    try {
      mkdirSync(resolve(this.config.DATA_DIR), { recursive: true });
      writeFileSync(file, `${key}\n`, { mode: 0o600 });
    } catch (error: unknown) {
      this.logger.warn(
        `could not save the generated API key under ${this.config.DATA_DIR}: ${String(error)}`,
      );
    }
    return { merchantId: merchant.id, apiKey: key, generated: true };
  }
}
