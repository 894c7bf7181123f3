import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AdminRoutes } from './admin/admin.routes';
import { AdminService } from './admin/admin.service';
import { ApiKeyService } from './auth/api-key.service';
import { BootstrapKeyService } from './auth/bootstrap-key.service';
import { CarrierCredentialService } from './auth/carrier-credential.service';
import { gatewayDatabase } from './auth/gateway.database';
import { RevocationWatcher } from './auth/revocation-watcher';
import { ApiKeyRepository } from './auth/api-key.repository';
import { CarrierCredentialRepository } from './auth/carrier-credential.repository';
import { MerchantRepository } from './auth/merchant.repository';
import { InventoryRoutes } from './catalog/inventory.routes';
import { ProductRoutes } from './catalog/product.routes';
import { InboundRoutes } from './inbound/inbound.routes';
import { OrderRoutes } from './order/order.routes';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { GatewayBus } from './http/gateway-bus';
import { CarrierEventsRoutes } from './label/carrier-events.routes';
import { LabelRoutes } from './label/label.routes';
import { OrderTrackingRoutes } from './label/order-tracking.routes';
import { CalculateRoutes } from './rating/calculate.routes';
import { RouteGroup, RouteTable } from './http/route-table';
import { ReferenceDataRoutes } from './rating/reference-data.routes';
import { WebhookRoutes } from './webhook/webhook.routes';
import { TrackingPageController } from './tracking/tracking-page.controller';
import { TrackingTokenService } from './tracking/tracking-token.service';
import { loadConfigOf } from '@consign/config';
import { GatewayConfig } from './gateway.config';
import { TrackingSecretRepository } from './tracking/tracking-secret.repository';

/** The gateway's route groups (http/route-table.ts): served by apiRoutes, documented from the table. */
export const API_ROUTE_GROUPS = [
  ProductRoutes,
  CalculateRoutes,
  ReferenceDataRoutes,
  OrderRoutes,
  InboundRoutes,
  InventoryRoutes,
  LabelRoutes,
  CarrierEventsRoutes,
  OrderTrackingRoutes,
  AdminRoutes,
  WebhookRoutes,
];

/**
 * The HTTP entry: authenticates (a Fastify hook, see applyHttpRules), validates with the
 * contracts, forwards over the bus.
 */
@Module({
  imports: [gatewayDatabase.module],
  controllers: [TrackingPageController],
  providers: [
    ...API_ROUTE_GROUPS,
    {
      provide: RouteTable,
      useFactory: (bus: GatewayBus, ...groups: RouteGroup[]) => new RouteTable(groups, bus),
      inject: [GatewayBus, ...API_ROUTE_GROUPS],
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
