import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AdminController } from './admin/admin.controller';
import { AdminService } from './admin/admin.service';
import { ApiKeyService } from './auth/api-key.service';
import { BootstrapKeyService } from './auth/bootstrap-key.service';
import { CarrierCredentialService } from './auth/carrier-credential.service';
import { gatewayDatabase } from './auth/gateway.database';
import { RevocationWatcher } from './auth/revocation-watcher';
import { ApiKeyRepository } from './auth/api-key.repository';
import { CarrierCredentialRepository } from './auth/carrier-credential.repository';
import { MerchantRepository } from './auth/merchant.repository';
import { InventoryController } from './catalog/inventory.controller';
import { ProductController } from './catalog/product.controller';
import { InboundRoutes } from './inbound/inbound.routes';
import { OrderRoutes } from './order/order.routes';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { GatewayBus } from './http/gateway-bus';
import { CarrierEventsController } from './label/carrier-events.controller';
import { LabelController } from './label/label.controller';
import { OrderTrackingRoutes } from './label/order-tracking.routes';
import { CalculateRoutes } from './rating/calculate.routes';
import { RouteGroup, RouteTable } from './http/route-table';
import { ReferenceDataController } from './rating/reference-data.controller';
import { WebhookController } from './webhook/webhook.controller';
import { TrackingPageController } from './tracking/tracking-page.controller';
import { TrackingTokenService } from './tracking/tracking-token.service';
import { loadConfigOf } from '@consign/config';
import { GatewayConfig } from './gateway.config';
import { TrackingSecretRepository } from './tracking/tracking-secret.repository';

/** The gateway's route groups (http/route-table.ts): served by apiRoutes, documented from the table. */
export const API_ROUTE_GROUPS = [CalculateRoutes, OrderRoutes, OrderTrackingRoutes, InboundRoutes];

/**
 * The HTTP entry: authenticates (a Fastify hook, see applyHttpRules), validates with the
 * contracts, forwards over the bus.
 */
@Module({
  imports: [gatewayDatabase.module],
  controllers: [
    ProductController,
    ReferenceDataController,
    InventoryController,
    LabelController,
    CarrierEventsController,
    AdminController,
    WebhookController,
    TrackingPageController,
  ],
  providers: [
    ...API_ROUTE_GROUPS,
    {
      provide: RouteTable,
      useFactory: (...groups: RouteGroup[]) => new RouteTable(groups),
      inject: API_ROUTE_GROUPS,
    },
    { provide: GatewayConfig, useFactory: () => loadConfigOf(GatewayConfig) },
    ApiKeyService,
    BootstrapKeyService,
    CarrierCredentialService,
    RevocationWatcher,
    AdminService,
    GatewayBus,
    TrackingTokenService,
    ApiKeyRepository,
    MerchantRepository,
    CarrierCredentialRepository,
    TrackingSecretRepository,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
  exports: [GatewayConfig, ApiKeyService, BootstrapKeyService, CarrierCredentialService],
})
export class GatewayModule {}
