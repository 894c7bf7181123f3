import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, ConfigError } from '@consign/config';
import { DatabaseHost } from '@consign/database';
import { ApiKeyRole } from '@consign/contracts';
import { ApiKeyRepository } from './api-key.repository';
import { MerchantRepository } from './merchant.repository';
import { ApiKeyService } from './api-key.service';
import { GatewayConfig } from '../gateway.config';
import { BOOTSTRAP_ADMIN_KEY_FILE, BootstrapKeyService } from './bootstrap-key.service';
import { gatewayDatabase } from './gateway.database';
import { TestDatabase, createTestDatabase } from '@consign/testing';

describe('BootstrapKeyService: the first admin key', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let keys: ApiKeyService;
  let dataDir: string;

  const bootstrap = (config: Partial<GatewayConfig>) =>
    new BootstrapKeyService(
      keys,
      Object.assign(new AppConfig(), { DATA_DIR: dataDir }),
      Object.assign(new GatewayConfig(), config),
    );

  beforeEach(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    keys = new ApiKeyService(
      await host.openServiceDataSource(gatewayDatabase.options),
      new ApiKeyRepository(),
      new MerchantRepository(),
    );
    dataDir = mkdtempSync(join(tmpdir(), 'consign-bootstrap-'));
  });

  afterEach(async () => {
    await host.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates one on first start, saves it under DATA_DIR, and shows it again later', async () => {
    const first = await bootstrap({}).ensureAdminKey();
    expect(first).toEqual({ apiKey: expect.stringMatching(/^csk_admin_/), generated: true });
    const file = join(dataDir, BOOTSTRAP_ADMIN_KEY_FILE);
    expect(readFileSync(file, 'utf8')).toBe(`${first.apiKey}\n`);
    await expect(keys.authenticate(first.apiKey as string)).resolves.toEqual({
      merchantId: null,
      role: ApiKeyRole.Admin,
    });
    await expect(bootstrap({}).ensureAdminKey()).resolves.toEqual({
      apiKey: first.apiKey,
      generated: false,
    });
  });

  it('takes BOOTSTRAP_ADMIN_KEY, and refuses one that is not usable as an admin key', async () => {
    const given = 'csk_admin_given_0123456789';
    await expect(bootstrap({ BOOTSTRAP_ADMIN_KEY: given }).ensureAdminKey()).resolves.toEqual({
      apiKey: given,
      generated: false,
    });
    expect(existsSync(join(dataDir, BOOTSTRAP_ADMIN_KEY_FILE))).toBe(false);
    await expect(keys.hasAdminKey()).resolves.toBe(true);

    await expect(
      bootstrap({ BOOTSTRAP_ADMIN_KEY: given, BOOTSTRAP_API_KEY: given }).ensureAdminKey(),
    ).rejects.toThrow(ConfigError);
    const merchant = await keys.createMerchant('Eta');
    const merchantKey = await keys.issueKey(merchant.id, ApiKeyRole.Merchant);
    await expect(bootstrap({ BOOTSTRAP_ADMIN_KEY: merchantKey }).ensureAdminKey()).rejects.toThrow(
      /merchant or operator key/,
    );
    await keys.revokeKey(given);
    await expect(bootstrap({ BOOTSTRAP_ADMIN_KEY: given }).ensureAdminKey()).rejects.toThrow(
      /revoked/,
    );
  });
});
