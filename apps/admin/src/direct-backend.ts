import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import {
  ApiKeyRepository,
  ApiKeyRole,
  ApiKeyService,
  CarrierCredentialRepository,
  CarrierCredentialService,
  MerchantRepository,
  gatewayDatabase,
} from '@consign/gateway';
import { AppConfig } from '@consign/config';
import { PlatformModule, claimEmbeddedDatabase } from '@consign/platform';
import { AdminBackend, IssuedKey, UsageError } from './admin-backend';

/**
 * The admin command straight on the database: on PostgreSQL at any time (every gateway picks the
 * change up within about a second), on the embedded database only while no other process has it
 * open (then it stops with DataDirInUseError, having written nothing, and points to --url).
 */
export class DirectAdminBackend implements AdminBackend {
  private constructor(
    private readonly app: INestApplicationContext,
    private readonly release: () => void,
  ) {}

  static async open(config: AppConfig): Promise<DirectAdminBackend> {
    const release = claimEmbeddedDatabase(config, 'consign-admin');

    @Module({
      imports: [
        PlatformModule.forRoot({ config, appName: 'consign-admin', requestsReplies: false }),
        gatewayDatabase.module,
      ],
      providers: [
        ApiKeyService,
        CarrierCredentialService,
        ApiKeyRepository,
        MerchantRepository,
        CarrierCredentialRepository,
      ],
    })
    class AdminModule {}

    try {
      const app = await NestFactory.createApplicationContext(AdminModule, {
        logger: ['error', 'warn'],
        abortOnError: false,
      });
      return new DirectAdminBackend(app, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  private get keys(): ApiKeyService {
    return this.app.get(ApiKeyService);
  }

  private get credentials(): CarrierCredentialService {
    return this.app.get(CarrierCredentialService);
  }

  async createMerchant(name: string, role: ApiKeyRole): Promise<IssuedKey> {
    const { merchant, key } = await this.keys
      .createMerchantWithKey(name, role)
      .catch((error: Error) => {
        throw new UsageError(error.message);
      });
    return { merchantId: merchant.id, apiKey: key };
  }

  async createKey(merchantId: number | null, role: ApiKeyRole): Promise<IssuedKey> {
    if (merchantId !== null && !(await this.keys.findMerchant(merchantId)))
      throw new UsageError(`no merchant ${merchantId}`);
    return { merchantId, apiKey: await this.keys.issueKey(merchantId, role) };
  }

  async revokeKey(apiKey: string): Promise<void> {
    if (!(await this.keys.revokeKey(apiKey)))
      throw new UsageError('no such key (or revoked already)');
  }

  async createCarrierKey(carrier: string): Promise<string> {
    return this.credentials.issue(carrier);
  }

  async revokeCarrierKey(credential: string): Promise<void> {
    if (!(await this.credentials.revoke(credential)))
      throw new UsageError('no such credential (or revoked already)');
  }

  async close(): Promise<void> {
    await this.app.close();
    this.release();
  }
}
