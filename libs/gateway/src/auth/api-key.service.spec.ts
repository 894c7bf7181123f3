import { createHash } from 'node:crypto';
import { DatabaseHost, TestDatabase, createTestDatabase } from '@consign/platform';
import { DataSource } from 'typeorm';
import { ApiKeyRole } from './api-key.entity';
import { ApiKeyService, generateApiKey, hashApiKey } from './api-key.service';
import { gatewayDatabase } from './gateway.database';

describe('ApiKeyService', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let keys: ApiKeyService;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(gatewayDatabase.options);
    keys = new ApiKeyService(dataSource);
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('authenticates an issued key as its merchant and role, storing only its hash', async () => {
    const merchant = await keys.createMerchant('Acme');
    const key = await keys.issueKey(merchant.id, ApiKeyRole.Operator);
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
    const merchant = await keys.createMerchant('Beta');
    const key = await keys.issueKey(merchant.id, ApiKeyRole.Merchant);
    await expect(keys.authenticate(generateApiKey())).resolves.toBeNull();
    await expect(keys.authenticate('short')).resolves.toBeNull();
    await expect(keys.authenticate('has space inside the key')).resolves.toBeNull();
    await expect(keys.revokeKey(key)).resolves.toBe(true);
    await expect(keys.authenticate(key)).resolves.toBeNull();
  });

  it('accepts a given bootstrap key once, and refuses a malformed one', async () => {
    const merchant = await keys.createMerchant('Gamma');
    await keys.issueKey(merchant.id, ApiKeyRole.Merchant, 'ck_given_bootstrap_key_1');
    await expect(keys.hasKey('ck_given_bootstrap_key_1')).resolves.toBe(true);
    await expect(keys.issueKey(merchant.id, ApiKeyRole.Merchant, 'tiny')).rejects.toThrow(
      /16 to 256/,
    );
    await expect(keys.createMerchant('  ')).rejects.toThrow(/merchant name/);
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
