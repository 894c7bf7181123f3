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
import {
  BOOTSTRAP_ADMIN_KEY_FILE,
  BOOTSTRAP_KEY_FILE,
  BootstrapKeyService,
} from './bootstrap-key.service';
import { gatewayDatabase } from './gateway.database';
import { TestDatabase, createTestDatabase } from '@consign/testing';

describe('BootstrapKeyService: the first merchant and the first admin key', () => {
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

  it('creates the first merchant with a generated key, saved under DATA_DIR and shown later', async () => {
    const first = await bootstrap({}).ensureFirstMerchant();
    expect(first).toEqual({
      merchantId: expect.any(Number),
      apiKey: expect.stringMatching(/^csk_/),
      generated: true,
    });
    expect(readFileSync(join(dataDir, BOOTSTRAP_KEY_FILE), 'utf8')).toBe(`${first.apiKey}\n`);
    await expect(keys.authenticate(first.apiKey as string)).resolves.toEqual({
      merchantId: first.merchantId,
      role: ApiKeyRole.Merchant,
    });
    await expect(bootstrap({}).ensureFirstMerchant()).resolves.toEqual({
      ...first,
      generated: false,
    });
  });

  it('leaves no merchant behind when the first key cannot be stored', async () => {
    // The merchant and its key were two writes: the merchant stayed, and the next start found it
    // with no key to show.
    await expect(bootstrap({ BOOTSTRAP_API_KEY: 'tiny' }).ensureFirstMerchant()).rejects.toThrow(
      /16 to 256/,
    );
    await expect(keys.firstMerchant()).resolves.toBeNull();
    const next = await bootstrap({}).ensureFirstMerchant();
    expect(next.generated).toBe(true);
    await expect(keys.authenticate(next.apiKey as string)).resolves.toEqual({
      merchantId: next.merchantId,
      role: ApiKeyRole.Merchant,
    });
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
    const { key: merchantKey } = await keys.createMerchantWithKey('Eta', ApiKeyRole.Merchant);
    await expect(bootstrap({ BOOTSTRAP_ADMIN_KEY: merchantKey }).ensureAdminKey()).rejects.toThrow(
      /merchant or operator key/,
    );
    await keys.revokeKey(given);
    await expect(bootstrap({ BOOTSTRAP_ADMIN_KEY: given }).ensureAdminKey()).rejects.toThrow(
      /revoked/,
    );
  });
});
