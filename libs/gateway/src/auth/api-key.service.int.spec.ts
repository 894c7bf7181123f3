import { createHash } from 'node:crypto';
import { DatabaseHost } from '@consign/database';
import { DataSource } from 'typeorm';
import { ApiKeyRole } from '@consign/contracts';
import { ApiKeyService, generateApiKey, hashApiKey } from './api-key.service';
import { CarrierCredentialService } from './carrier-credential.service';
import { gatewayDatabase } from './gateway.database';
import { GatewayConfig } from '../gateway.config';
import { RevocationWatcher } from './revocation-watcher';
import { TestDatabase, createTestDatabase } from '@consign/testing';
import { ApiKeyRepository } from './api-key.repository';
import { CarrierCredentialRepository } from './carrier-credential.repository';
import { MerchantRepository } from './merchant.repository';

describe('ApiKeyService', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let keys: ApiKeyService;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(gatewayDatabase.options);
    keys = new ApiKeyService(dataSource, new ApiKeyRepository(), new MerchantRepository());
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('authenticates an issued key as its merchant and role, storing only its hash', async () => {
    const { merchant, key } = await keys.createMerchantWithKey('Acme', ApiKeyRole.Operator);
    expect(key).toMatch(/^csk_op_/);
    await expect(keys.authenticate(key)).resolves.toEqual({
      merchantId: merchant.id,
      role: ApiKeyRole.Operator,
    });
    const stored = await dataSource.query(
      `SELECT key_hash, prefix FROM gateway.api_key WHERE merchant_id = $1`,
      [merchant.id],
    );
    expect(stored).toEqual([{ key_hash: hashApiKey(key), prefix: key.slice(0, 12) }]);
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it('rejects unknown, malformed and revoked keys', async () => {
    const { key } = await keys.createMerchantWithKey('Beta', ApiKeyRole.Merchant);
    await expect(keys.authenticate(generateApiKey())).resolves.toBeNull();
    await expect(keys.authenticate('short')).resolves.toBeNull();
    await expect(keys.authenticate('has space inside the key')).resolves.toBeNull();
    await expect(keys.revokeKey(key)).resolves.toBe(true);
    await expect(keys.authenticate(key)).resolves.toBeNull();
  });

  it('accepts a given bootstrap key once, and refuses a malformed one', async () => {
    const { merchant } = await keys.createMerchantWithKey('Gamma', ApiKeyRole.Merchant);
    await keys.issueKey(merchant.id, ApiKeyRole.Merchant, 'ck_given_bootstrap_key_1');
    await expect(keys.hasKey('ck_given_bootstrap_key_1')).resolves.toBe(true);
    await expect(keys.issueKey(merchant.id, ApiKeyRole.Merchant, 'tiny')).rejects.toThrow(
      /16 to 256/,
    );
    await expect(keys.createMerchantWithKey('  ', ApiKeyRole.Merchant)).rejects.toThrow(
      /merchant name/,
    );
  });

  it('creates a merchant with its first key, or neither', async () => {
    const count = async () =>
      Number((await dataSource.query(`SELECT count(*) AS n FROM gateway.merchant`))[0].n);
    const before = await count();
    const { merchant, key } = await keys.createMerchantWithKey(' Eta ', ApiKeyRole.Operator);
    expect(merchant.name).toBe('Eta');
    await expect(keys.authenticate(key)).resolves.toEqual({
      merchantId: merchant.id,
      role: ApiKeyRole.Operator,
    });
    expect(await count()).toBe(before + 1);
    // The key cannot be stored (an admin key belongs to no merchant): the merchant is rolled back.
    await expect(keys.createMerchantWithKey('Theta', ApiKeyRole.Admin)).rejects.toThrow(
      /admin key belongs to no merchant/,
    );
    await expect(keys.createMerchantWithKey('', ApiKeyRole.Merchant)).rejects.toThrow(
      /merchant name/,
    );
    expect(await count()).toBe(before + 1);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the key as UTF-8, in hex', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashApiKey('clé-€')).toBe(createHash('sha256').update('clé-€', 'utf8').digest('hex'));
  });
});

describe('admin keys and revocation across gateway processes', () => {
  let database: TestDatabase;
  let hosts: DatabaseHost[];
  let gateways: { keys: ApiKeyService; watcher: RevocationWatcher }[];

  beforeAll(async () => {
    database = await createTestDatabase();
    hosts = [];
    gateways = [];
    // Two gateways as two processes would have them: each its own DataSource and caches.
    for (let i = 0; i < (database.target.kind === 'postgres' ? 2 : 1); i++) {
      const host = new DatabaseHost(database.target);
      hosts.push(host);
      const dataSource = await host.openServiceDataSource(gatewayDatabase.options);
      const keys = new ApiKeyService(dataSource, new ApiKeyRepository(), new MerchantRepository());
      const credentials = new CarrierCredentialService(
        dataSource,
        new CarrierCredentialRepository(),
      );
      const config = Object.assign(new GatewayConfig(), { KEY_REVOCATION_POLL_MS: 0 });
      const watcher = new RevocationWatcher(
        dataSource,
        keys,
        credentials,
        config,
        new ApiKeyRepository(),
      );
      await watcher.look();
      gateways.push({ keys, watcher });
    }
  });

  afterAll(async () => {
    for (const host of hosts) await host.close();
    await database.drop();
  });

  it('issues admin keys for no merchant, and every other key for one', async () => {
    const [{ keys }] = gateways;
    const admin = await keys.issueKey(null, ApiKeyRole.Admin);
    expect(admin).toMatch(/^csk_admin_/);
    await expect(keys.authenticate(admin)).resolves.toEqual({
      merchantId: null,
      role: ApiKeyRole.Admin,
    });
    await expect(keys.hasAdminKey()).resolves.toBe(true);
    await expect(keys.issueKey(null, ApiKeyRole.Merchant)).rejects.toThrow(/admin key/);
    const { merchant } = await keys.createMerchantWithKey('Delta', ApiKeyRole.Merchant);
    await expect(keys.issueKey(merchant.id, ApiKeyRole.Admin)).rejects.toThrow(/admin key/);
  });

  it("evicts a key revoked by another gateway from this one's cache at its next look", async () => {
    const [first, second = first] = gateways;
    const { merchant, key } = await first.keys.createMerchantWithKey(
      'Epsilon',
      ApiKeyRole.Merchant,
    );
    const principal = { merchantId: merchant.id, role: ApiKeyRole.Merchant };
    await expect(second.keys.authenticate(key)).resolves.toEqual(principal);
    expect(second.keys.cachedPrincipal(key)).toEqual(principal);

    await expect(first.keys.revokeKey(key)).resolves.toBe(true);
    await expect(first.keys.revokeKey(key)).resolves.toBe(false);
    await second.watcher.look();
    expect(second.keys.cachedPrincipal(key)).toBeUndefined();
    await expect(second.keys.authenticate(key)).resolves.toBeNull();
  });

  it('accepts a key created elsewhere even where it was refused before', async () => {
    const [first, second = first] = gateways;
    const { merchant } = await first.keys.createMerchantWithKey('Zeta', ApiKeyRole.Merchant);
    const key = generateApiKey();
    await expect(second.keys.authenticate(key)).resolves.toBeNull();
    await first.keys.issueKey(merchant.id, ApiKeyRole.Merchant, key);
    await second.watcher.look();
    await expect(second.keys.authenticate(key)).resolves.toEqual({
      merchantId: merchant.id,
      role: ApiKeyRole.Merchant,
    });
  });
});
