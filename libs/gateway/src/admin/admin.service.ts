import { Inject, Injectable } from '@nestjs/common';
import { DataSource, FindOptionsWhere, IsNull, Not } from 'typeorm';
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
import { ApiKeyEntity } from '../auth/api-key.entity';
import { ApiKeyService, hashApiKey } from '../auth/api-key.service';
import { CarrierCredentialEntity } from '../auth/carrier-credential.entity';
import { CarrierCredentialService } from '../auth/carrier-credential.service';
import { gatewayDatabase } from '../auth/gateway.database';
import { MerchantEntity } from '../auth/merchant.entity';
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
  ) {}

  async createMerchant(
    name: string,
    role: ApiKeyRole = ApiKeyRole.Merchant,
  ): Promise<CreatedMerchantView> {
    const merchant = await this.keys.createMerchant(name);
    const { key, entity } = await this.keys.issue(merchant.id, role);
    return { merchant: merchantView(merchant), key: { ...keyView(entity), api_key: key } };
  }

  async merchants({ page, size }: Page): Promise<MerchantPageView> {
    const [rows, total] = await this.dataSource
      .getRepository(MerchantEntity)
      .findAndCount({ order: { id: 'DESC' }, skip: (page - 1) * size, take: size });
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
    const { key, entity } = await this.keys.issue(merchantId ?? null, role);
    return { ...keyView(entity), api_key: key };
  }

  async apiKeys({ page, size }: Page, merchantId?: number): Promise<ApiKeyPageView> {
    if (merchantId !== undefined) await this.merchant(merchantId);
    const [rows, total] = await this.dataSource.getRepository(ApiKeyEntity).findAndCount({
      where: merchantId !== undefined ? { merchantId } : {},
      order: { id: 'DESC' },
      skip: (page - 1) * size,
      take: size,
    });
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
    const entity = await this.dataSource
      .getRepository(CarrierCredentialEntity)
      .findOneByOrFail({ keyHash: hashApiKey(credential) });
    return { ...credentialView(entity), credential };
  }

  async carrierCredentials({ page, size }: Page): Promise<CarrierCredentialPageView> {
    const [rows, total] = await this.dataSource
      .getRepository(CarrierCredentialEntity)
      .findAndCount({ order: { id: 'DESC' }, skip: (page - 1) * size, take: size });
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
  private async revokeKey(
    where: FindOptionsWhere<ApiKeyEntity>,
    notFound: string,
  ): Promise<ApiKeyView> {
    const repository = this.dataSource.getRepository(ApiKeyEntity);
    const found = await repository.findOneBy(where);
    if (!found) throw new ApiError(404, notFound);
    if (!found.revokedAt && found.role === ApiKeyRole.Admin) {
      const others = await repository.countBy({
        role: ApiKeyRole.Admin,
        revokedAt: IsNull(),
        id: Not(found.id),
      });
      if (others === 0)
        throw new ApiError(409, 'This is the last admin key: issue another before revoking it.');
    }
    await repository.update({ id: found.id, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    this.keys.forget([found.keyHash]);
    return keyView(await repository.findOneByOrFail({ id: found.id }));
  }

  private async revokeCredential(
    where: FindOptionsWhere<CarrierCredentialEntity>,
    notFound: string,
  ): Promise<CarrierCredentialView> {
    const repository = this.dataSource.getRepository(CarrierCredentialEntity);
    const found = await repository.findOneBy(where);
    if (!found) throw new ApiError(404, notFound);
    await repository.update({ id: found.id, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    this.credentials.forget([found.keyHash]);
    return credentialView(await repository.findOneByOrFail({ id: found.id }));
  }
}

function merchantView(merchant: MerchantEntity): MerchantView {
  return { id: merchant.id, name: merchant.name, created_time: merchant.createdAt.toISOString() };
}

function keyView(key: ApiKeyEntity): ApiKeyView {
  return {
    id: key.id,
    merchant_id: key.merchantId ?? null,
    role: key.role,
    prefix: key.prefix,
    created_time: key.createdAt.toISOString(),
    revoked_time: key.revokedAt ? key.revokedAt.toISOString() : null,
  };
}

function credentialView(credential: CarrierCredentialEntity): CarrierCredentialView {
  return {
    id: credential.id,
    carrier_code: credential.carrierCode,
    prefix: credential.prefix,
    created_time: credential.createdAt.toISOString(),
    revoked_time: credential.revokedAt ? credential.revokedAt.toISOString() : null,
  };
}
