import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import {
  CatalogTopic,
  ReconcileStockRequest,
  StockReconciliationReport,
  ApiKeyPageView,
  ApiKeyQuery,
  ApiKeyView,
  CarrierCredentialPageView,
  CarrierCredentialView,
  CreateApiKeyRequest,
  CreateCarrierCredentialRequest,
  CreateMerchantRequest,
  CreatedMerchantView,
  IssuedApiKeyView,
  IssuedCarrierCredentialView,
  MerchantPageView,
  MerchantView,
  PAGE_LIMITS,
  PageQuery,
  RevokeApiKeyRequest,
  RevokeCarrierCredentialRequest,
} from '@consign/contracts';
import { ApiKeyRole } from '@consign/contracts';
import { Roles } from '../auth/api-key.auth';
import { ApiEnvelope, LongId } from '../http/api-envelope';
import { contract, idParam } from '../http/contract.pipe';
import { ApiController } from '../http/direct-routes';
import { GatewayBus } from '../http/gateway-bus';
import { CorrelationId } from '../http/request-context';
import { AdminService } from './admin.service';

function pageOf(query: PageQuery): { page: number; size: number } {
  return {
    page: query.page ?? PAGE_LIMITS.default_page,
    size: query.size ?? PAGE_LIMITS.default_size,
  };
}

/**
 * The admin API: merchants, API keys and carrier credentials, managed while the platform runs.
 * Only `admin` keys may call it (other keys get a 403), and an admin key may call nothing else.
 * A key or credential is in an answer once, when it is issued; revoking one takes effect in every
 * gateway within a couple of seconds.
 */
@ApiTags('Admin')
@ApiController('2026-05/cloud/admin')
export class AdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly bus: GatewayBus,
  ) {}

  /**
   * Runs the stock reconciliation now (docs/operations.md): live reservations of cancelled or
   * shipped orders are released or consumed, reserved counts set to their reservations.
   */
  @Post('stock/reconcile')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Reconcile stock reservations with their orders' })
  @ApiEnvelope(StockReconciliationReport, {
    description:
      'What was compared, and what was repaired: reservations released (order Cancelled), consumed (order shipped) or reported (order unknown), and reserved counts set to their reservations.',
    errors: [403],
  })
  reconcileStock(
    @CorrelationId() correlationId: string,
    @Body(contract(ReconcileStockRequest)) request: ReconcileStockRequest,
  ): Promise<StockReconciliationReport> {
    return this.bus.call(CatalogTopic.ReconcileStock, request, {
      key: request.merchant_id ?? 'all',
      correlationId,
    });
  }

  @Post('merchant')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Create a merchant and its first API key' })
  @ApiEnvelope(CreatedMerchantView, {
    description: 'Created: the merchant, and its first key (`key.api_key`, shown this once).',
    errors: [403],
  })
  createMerchant(
    @Body(contract(CreateMerchantRequest)) request: CreateMerchantRequest,
  ): Promise<CreatedMerchantView> {
    return this.admin.createMerchant(request.name, request.role);
  }

  @Get('merchant')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'List merchants' })
  @ApiEnvelope(MerchantPageView, {
    description: 'A page of merchants, newest first.',
    errors: [403],
  })
  merchants(@Query(contract(PageQuery)) query: PageQuery): Promise<MerchantPageView> {
    return this.admin.merchants(pageOf(query));
  }

  @Get('merchant/:merchant_id')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Get a merchant' })
  @ApiParam({ name: 'merchant_id', description: 'The merchant id.', schema: LongId })
  @ApiEnvelope(MerchantView, { description: '`data` is the merchant.', errors: [403] })
  merchant(
    @Param('merchant_id', idParam('merchant_id')) merchantId: number,
  ): Promise<MerchantView> {
    return this.admin.merchant(merchantId);
  }

  @Post('key')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Issue an API key' })
  @ApiEnvelope(IssuedApiKeyView, {
    description: 'Issued: `api_key` is the key, shown this once (only its SHA-256 is kept).',
    errors: [403],
  })
  issueKey(
    @Body(contract(CreateApiKeyRequest)) request: CreateApiKeyRequest,
  ): Promise<IssuedApiKeyView> {
    return this.admin.issueKey(request.role, request.merchant_id);
  }

  @Get('key')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'List API keys' })
  @ApiEnvelope(ApiKeyPageView, {
    description: 'A page of keys (prefixes, never the keys), newest first.',
    errors: [403],
  })
  keys(@Query(contract(ApiKeyQuery)) query: ApiKeyQuery): Promise<ApiKeyPageView> {
    return this.admin.apiKeys(pageOf(query), query.merchant_id);
  }

  @Post('key/revoke')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Revoke an API key given in clear' })
  @ApiEnvelope(ApiKeyView, {
    description:
      'Revoked (or already revoked): every gateway refuses the key within a couple of seconds.',
    errors: [403, 409],
  })
  revokeKeyByValue(
    @Body(contract(RevokeApiKeyRequest)) request: RevokeApiKeyRequest,
  ): Promise<ApiKeyView> {
    return this.admin.revokeKeyByValue(request.api_key);
  }

  @Post('key/:key_id/revoke')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Revoke an API key' })
  @ApiParam({ name: 'key_id', description: 'The key id (from the list).', schema: LongId })
  @ApiEnvelope(ApiKeyView, {
    description:
      'Revoked (or already revoked): every gateway refuses the key within a couple of seconds. ' +
      'The last valid admin key cannot be revoked (409).',
    errors: [403, 409],
  })
  revokeKey(@Param('key_id', idParam('key_id')) keyId: number): Promise<ApiKeyView> {
    return this.admin.revokeKeyById(keyId);
  }

  @Post('carrier-credential')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: "Issue a carrier's webhook credential" })
  @ApiEnvelope(IssuedCarrierCredentialView, {
    description: 'Issued: `credential` is shown this once (only its SHA-256 is kept).',
    errors: [403],
  })
  issueCarrierCredential(
    @Body(contract(CreateCarrierCredentialRequest)) request: CreateCarrierCredentialRequest,
  ): Promise<IssuedCarrierCredentialView> {
    return this.admin.issueCarrierCredential(request.carrier_code);
  }

  @Get('carrier-credential')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'List carrier credentials' })
  @ApiEnvelope(CarrierCredentialPageView, {
    description: 'A page of carrier credentials (prefixes only), newest first.',
    errors: [403],
  })
  carrierCredentials(
    @Query(contract(PageQuery)) query: PageQuery,
  ): Promise<CarrierCredentialPageView> {
    return this.admin.carrierCredentials(pageOf(query));
  }

  @Post('carrier-credential/revoke')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Revoke a carrier credential given in clear' })
  @ApiEnvelope(CarrierCredentialView, {
    description: 'Revoked (or already revoked): refused everywhere within a couple of seconds.',
    errors: [403],
  })
  revokeCarrierCredentialByValue(
    @Body(contract(RevokeCarrierCredentialRequest)) request: RevokeCarrierCredentialRequest,
  ): Promise<CarrierCredentialView> {
    return this.admin.revokeCarrierCredentialByValue(request.credential);
  }

  @Post('carrier-credential/:credential_id/revoke')
  @Roles(ApiKeyRole.Admin)
  @ApiSecurity('admin')
  @ApiOperation({ summary: 'Revoke a carrier credential' })
  @ApiParam({ name: 'credential_id', description: 'The credential id.', schema: LongId })
  @ApiEnvelope(CarrierCredentialView, {
    description: 'Revoked (or already revoked): refused everywhere within a couple of seconds.',
    errors: [403],
  })
  revokeCarrierCredential(
    @Param('credential_id', idParam('credential_id')) credentialId: number,
  ): Promise<CarrierCredentialView> {
    return this.admin.revokeCarrierCredentialById(credentialId);
  }
}
