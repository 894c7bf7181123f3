import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ApiKeyPageView,
  ApiKeyRole,
  ApiKeyView,
  CarrierCredentialPageView,
  CarrierCredentialView,
  CreatedMerchantView,
  IssuedApiKeyView,
  IssuedCarrierCredentialView,
  MerchantPageView,
  MerchantView,
} from '@consign/contracts';
import { ApiKeyLookup, ApiKeyRecord, ApiKeyRepository } from '../auth/api-key.repository';
import { ApiKeyService, hashApiKey } from '../auth/api-key.service';
import {
  CarrierCredentialLookup,
  CarrierCredentialRecord,
  CarrierCredentialRepository,
} from '../auth/carrier-credential.repository';
import { CarrierCredentialService } from '../auth/carrier-credential.service';
import { gatewayDatabase } from '../auth/gateway.database';
import { Merchant, MerchantRepository } from '../auth/merchant.repository';
import { ApiError } from '../http/api-error';

interface Page {
  page: number;
  size: number;
}

/**
 * The admin API's use cases: merchants, API keys and carrier credentials, in the gateway's own
 * schema. A key or credential is returned in clear only by the call that issues it; every other
 * answer carries its prefix. A revocation takes effect at once in this process and, through each
 * gateway's RevocationWatcher, in every other within a couple of seconds.
 */
@Injectable()
export class AdminService {
  constructor(
    @Inject(gatewayDatabase.dataSource) private readonly dataSource: DataSource,
    private readonly keys: ApiKeyService,
    private readonly credentials: CarrierCredentialService,
    private readonly merchantRows: MerchantRepository,
    private readonly keyRows: ApiKeyRepository,
    private readonly credentialRows: CarrierCredentialRepository,
  ) {}

  /**
   * A merchant and its first key (a `merchant` key when no role is given; a null one arrives as
   * none, through the route inputs' nullAsAbsent).
   */
  async createMerchant(name: string, role: ApiKeyRole | undefined): Promise<CreatedMerchantView> {
    const { merchant, key, record } = await this.keys.createMerchantWithKey(
      name,
      role ?? ApiKeyRole.Merchant,
    );
    return { merchant: merchantView(merchant), key: { ...keyView(record), api_key: key } };
  }

  async merchants({ page, size }: Page): Promise<MerchantPageView> {
    const [rows, total] = await this.merchantRows.page(this.dataSource, (page - 1) * size, size);
    return { page, size, total, list: rows.map(merchantView) };
  }

  async merchant(id: number): Promise<MerchantView> {
    const merchant = await this.keys.findMerchant(id);
    if (!merchant) throw new ApiError(404, `Merchant ${id} not found.`);
    return merchantView(merchant);
  }

  async issueKey(role: ApiKeyRole, merchantId: number | undefined): Promise<IssuedApiKeyView> {
    if (role === ApiKeyRole.Admin && merchantId !== undefined)
      throw new ApiError(400, 'Validation failed: merchant_id must be absent for an admin key');
    if (role !== ApiKeyRole.Admin) await this.merchant(merchantId as number);
    const { key, record } = await this.keys.issue(merchantId ?? null, role);
    return { ...keyView(record), api_key: key };
  }

  async apiKeys({ page, size }: Page, merchantId?: number): Promise<ApiKeyPageView> {
    if (merchantId !== undefined) await this.merchant(merchantId);
    const [rows, total] = await this.keyRows.page(
      this.dataSource,
      merchantId,
      (page - 1) * size,
      size,
    );
    return { page, size, total, list: rows.map(keyView) };
  }

  revokeKeyById(id: number): Promise<ApiKeyView> {
    return this.revokeKey({ id }, `API key ${id} not found.`);
  }

  revokeKeyByValue(apiKey: string): Promise<ApiKeyView> {
    return this.revokeKey({ keyHash: hashApiKey(apiKey) }, 'No such API key.');
  }

  async issueCarrierCredential(carrierCode: string): Promise<IssuedCarrierCredentialView> {
    const credential = await this.credentials.issue(carrierCode);
    const record = await this.credentialRows.find(this.dataSource, {
      keyHash: hashApiKey(credential),
    });
    if (!record) throw new Error('the carrier credential just issued was not found');
    return { ...credentialView(record), credential };
  }

  async carrierCredentials({ page, size }: Page): Promise<CarrierCredentialPageView> {
    const [rows, total] = await this.credentialRows.page(this.dataSource, (page - 1) * size, size);
    return { page, size, total, list: rows.map(credentialView) };
  }

  revokeCarrierCredentialById(id: number): Promise<CarrierCredentialView> {
    return this.revokeCredential({ id }, `Carrier credential ${id} not found.`);
  }

  revokeCarrierCredentialByValue(credential: string): Promise<CarrierCredentialView> {
    return this.revokeCredential(
      { keyHash: hashApiKey(credential) },
      'No such carrier credential.',
    );
  }

  /**
   * Revokes a key (again: the same answer, so a retried revocation is harmless). The last valid
   * admin key cannot be revoked: nothing could manage the platform afterwards (409).
   */
  private async revokeKey(lookup: ApiKeyLookup, notFound: string): Promise<ApiKeyView> {
    // One transaction, the admin keys locked: two revocations at once cannot leave none.
    const found = await this.dataSource.transaction(async (manager) => {
      const key = await this.keyRows.find(manager, lookup);
      if (!key) throw new ApiError(404, notFound);
      if (!key.revokedAt && key.role === ApiKeyRole.Admin) {
        const others = await this.keyRows.lockOtherActiveAdmins(manager, key.id);
        if (others === 0)
          throw new ApiError(409, 'This is the last admin key: issue another before revoking it.');
      }
      await this.keyRows.revoke(manager, { id: key.id });
      return key;
    });
    this.keys.forget([found.keyHash]);
    return keyView(await this.readBack(this.keyRows.find(this.dataSource, { id: found.id })));
  }

  private async revokeCredential(
    lookup: CarrierCredentialLookup,
    notFound: string,
  ): Promise<CarrierCredentialView> {
    const found = await this.credentialRows.find(this.dataSource, lookup);
    if (!found) throw new ApiError(404, notFound);
    await this.credentialRows.revoke(this.dataSource, { id: found.id });
    this.credentials.forget([found.keyHash]);
    return credentialView(
      await this.readBack(this.credentialRows.find(this.dataSource, { id: found.id })),
    );
  }

  /** A row this use case just wrote or found: missing only if it was deleted meanwhile. */
  private async readBack<T>(row: Promise<T | undefined>): Promise<T> {
    const found = await row;
    if (!found) throw new Error('a row revoked a moment ago is gone');
    return found;
  }
}

function merchantView(merchant: Merchant): MerchantView {
  return { id: merchant.id, name: merchant.name, created_time: merchant.createdAt.toISOString() };
}

function keyView(key: ApiKeyRecord): ApiKeyView {
  return {
    id: key.id,
    merchant_id: key.merchantId ?? null,
    role: key.role,
    prefix: key.prefix,
    created_time: key.createdAt.toISOString(),
    revoked_time: key.revokedAt ? key.revokedAt.toISOString() : null,
  };
}

function credentialView(credential: CarrierCredentialRecord): CarrierCredentialView {
  return {
    id: credential.id,
    carrier_code: credential.carrierCode,
    prefix: credential.prefix,
    created_time: credential.createdAt.toISOString(),
    revoked_time: credential.revokedAt ? credential.revokedAt.toISOString() : null,
  };
}
