import { Injectable } from '@nestjs/common';
import {
  ApiKeyPageView,
  ApiKeyQuery,
  ApiKeyRole,
  ApiKeyView,
  CarrierCredentialPageView,
  CarrierCredentialView,
  CatalogTopic,
  CreateApiKeyRequest,
  CreateCarrierCredentialRequest,
  CreateMerchantRequest,
  CreatedMerchantView,
  IssuedApiKeyView,
  IssuedCarrierCredentialView,
  MerchantPageView,
  MerchantView,
  PageQuery,
  ReconcileStockRequest,
  RevokeApiKeyRequest,
  RevokeCarrierCredentialRequest,
  StockReconciliationReport,
} from '@consign/contracts';
import { longIdParam, pageOf } from '../http/route-inputs';
import { RouteGroup, forward, route } from '../http/route-table';
import { AdminService } from './admin.service';

/** Only admin keys (other keys get a 403); documented with the `admin` security scheme. */
const ADMIN_ONLY = { roles: [ApiKeyRole.Admin] } as const;

/**
 * The admin API: merchants, API keys and carrier credentials, managed while the platform runs.
 * Only `admin` keys may call it (other keys get a 403), and an admin key may call nothing else.
 * A key or credential is in an answer once, when it is issued; revoking one takes effect in every
 * gateway within a couple of seconds.
 */
@Injectable()
export class AdminRoutes implements RouteGroup {
  readonly name = 'Admin';
  readonly tag = 'Admin';
  readonly prefix = '2026-05/cloud/admin';

  constructor(private readonly admin: AdminService) {}

  readonly routes = [
    /**
     * Runs the stock reconciliation now (docs/operations.md): live reservations of cancelled or
     * shipped orders are released or consumed, reserved counts set to their reservations.
     */
    forward({
      name: 'reconcileStock',
      method: 'POST',
      path: 'stock/reconcile',
      summary: 'Reconcile stock reservations with their orders',
      access: ADMIN_ONLY,
      body: ReconcileStockRequest,
      response: {
        data: StockReconciliationReport,
        description:
          'What was compared, and what was repaired: reservations released (order Cancelled), consumed (order shipped) or reported (order unknown), and reserved counts set to their reservations.',
        errors: [403],
      },
      topic: CatalogTopic.ReconcileStock,
      request: ({ body }) => body,
      // Not a merchant's: the reconciliation of one merchant's stock, or of all.
      key: ({ body }) => body.merchant_id ?? 'all',
    }),
    route({
      name: 'createMerchant',
      method: 'POST',
      path: 'merchant',
      summary: 'Create a merchant and its first API key',
      access: ADMIN_ONLY,
      body: CreateMerchantRequest,
      response: {
        data: CreatedMerchantView,
        description: 'Created: the merchant, and its first key (`key.api_key`, shown this once).',
        errors: [403],
      },
      handle: ({ body }): Promise<CreatedMerchantView> =>
        this.admin.createMerchant(body.name, body.role),
    }),
    route({
      name: 'merchants',
      method: 'GET',
      path: 'merchant',
      summary: 'List merchants',
      access: ADMIN_ONLY,
      query: PageQuery,
      response: {
        data: MerchantPageView,
        description: 'A page of merchants, newest first.',
        errors: [403],
      },
      handle: ({ query }): Promise<MerchantPageView> => this.admin.merchants(pageOf(query)),
    }),
    route({
      name: 'merchant',
      method: 'GET',
      path: 'merchant/:merchant_id',
      summary: 'Get a merchant',
      access: ADMIN_ONLY,
      params: { merchant_id: longIdParam('The merchant id.') },
      response: { data: MerchantView, description: '`data` is the merchant.', errors: [403] },
      handle: ({ params }): Promise<MerchantView> => this.admin.merchant(params.merchant_id),
    }),
    route({
      name: 'issueKey',
      method: 'POST',
      path: 'key',
      summary: 'Issue an API key',
      access: ADMIN_ONLY,
      body: CreateApiKeyRequest,
      response: {
        data: IssuedApiKeyView,
        description: 'Issued: `api_key` is the key, shown this once (only its SHA-256 is kept).',
        errors: [403],
      },
      handle: ({ body }): Promise<IssuedApiKeyView> =>
        this.admin.issueKey(body.role, body.merchant_id),
    }),
    route({
      name: 'keys',
      method: 'GET',
      path: 'key',
      summary: 'List API keys',
      access: ADMIN_ONLY,
      query: ApiKeyQuery,
      response: {
        data: ApiKeyPageView,
        description: 'A page of keys (prefixes, never the keys), newest first.',
        errors: [403],
      },
      handle: ({ query }): Promise<ApiKeyPageView> =>
        this.admin.apiKeys(pageOf(query), query.merchant_id),
    }),
    route({
      name: 'revokeKeyByValue',
      method: 'POST',
      path: 'key/revoke',
      summary: 'Revoke an API key given in clear',
      access: ADMIN_ONLY,
      body: RevokeApiKeyRequest,
      response: {
        data: ApiKeyView,
        description:
          'Revoked (or already revoked): every gateway refuses the key within a couple of seconds.',
        errors: [403, 409],
      },
      handle: ({ body }): Promise<ApiKeyView> => this.admin.revokeKeyByValue(body.api_key),
    }),
    route({
      name: 'revokeKey',
      method: 'POST',
      path: 'key/:key_id/revoke',
      summary: 'Revoke an API key',
      access: ADMIN_ONLY,
      params: { key_id: longIdParam('The key id (from the list).') },
      response: {
        data: ApiKeyView,
        description:
          'Revoked (or already revoked): every gateway refuses the key within a couple of seconds. ' +
          'The last valid admin key cannot be revoked (409).',
        errors: [403, 409],
      },
      handle: ({ params }): Promise<ApiKeyView> => this.admin.revokeKeyById(params.key_id),
    }),
    route({
      name: 'issueCarrierCredential',
      method: 'POST',
      path: 'carrier-credential',
      summary: "Issue a carrier's webhook credential",
      access: ADMIN_ONLY,
      body: CreateCarrierCredentialRequest,
      response: {
        data: IssuedCarrierCredentialView,
        description: 'Issued: `credential` is shown this once (only its SHA-256 is kept).',
        errors: [403],
      },
      handle: ({ body }): Promise<IssuedCarrierCredentialView> =>
        this.admin.issueCarrierCredential(body.carrier_code),
    }),
    route({
      name: 'carrierCredentials',
      method: 'GET',
      path: 'carrier-credential',
      summary: 'List carrier credentials',
      access: ADMIN_ONLY,
      query: PageQuery,
      response: {
        data: CarrierCredentialPageView,
        description: 'A page of carrier credentials (prefixes only), newest first.',
        errors: [403],
      },
      handle: ({ query }): Promise<CarrierCredentialPageView> =>
        this.admin.carrierCredentials(pageOf(query)),
    }),
    route({
      name: 'revokeCarrierCredentialByValue',
      method: 'POST',
      path: 'carrier-credential/revoke',
      summary: 'Revoke a carrier credential given in clear',
      access: ADMIN_ONLY,
      body: RevokeCarrierCredentialRequest,
      response: {
        data: CarrierCredentialView,
        description: 'Revoked (or already revoked): refused everywhere within a couple of seconds.',
        errors: [403],
      },
      handle: ({ body }): Promise<CarrierCredentialView> =>
        this.admin.revokeCarrierCredentialByValue(body.credential),
    }),
    route({
      name: 'revokeCarrierCredential',
      method: 'POST',
      path: 'carrier-credential/:credential_id/revoke',
      summary: 'Revoke a carrier credential',
      access: ADMIN_ONLY,
      params: { credential_id: longIdParam('The credential id.') },
      response: {
        data: CarrierCredentialView,
        description: 'Revoked (or already revoked): refused everywhere within a couple of seconds.',
        errors: [403],
      },
      handle: ({ params }): Promise<CarrierCredentialView> =>
        this.admin.revokeCarrierCredentialById(params.credential_id),
    }),
  ];
}
