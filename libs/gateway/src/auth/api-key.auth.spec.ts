import 'reflect-metadata';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { GatewayModule } from '../gateway.module';
import { API_VERSION_PREFIXES, isApiRoute } from '../http/api-routes';
import { ApiKeyRole } from '@consign/contracts';
import { CarrierOnly, Roles } from './api-key.auth';
import { TrackingPageController } from '../tracking/tracking-page.controller';

describe('route access', () => {
  it('puts every gateway controller under an API version, where a credential is required, bar the public tracking page', () => {
    const controllers: (new (...args: never[]) => unknown)[] = Reflect.getMetadata(
      MODULE_METADATA.CONTROLLERS,
      GatewayModule,
    );
    expect(controllers.length).toBeGreaterThan(0);
    for (const controller of controllers) {
      const path: string = Reflect.getMetadata(PATH_METADATA, controller);
      expect({ controller: controller.name, api: isApiRoute(`/${path}/`) }).toEqual({
        controller: controller.name,
        // Open by design: its unguessable token is the credential, and it shows no personal data.
        api: controller !== TrackingPageController,
      });
    }
  });

  it('knows the versions of the client interface and nothing else', () => {
    expect(API_VERSION_PREFIXES).toEqual(['/2025-07/', '/2026-05/']);
    expect(isApiRoute('/2025-07/cloud/order')).toBe(true);
    expect(isApiRoute('/2026-05/cloud/label/:id')).toBe(true);
    expect(isApiRoute('/health/ready')).toBe(false);
    expect(isApiRoute('/metrics')).toBe(false);
    expect(isApiRoute('/docs')).toBe(false);
    expect(isApiRoute('/2025-07')).toBe(false);
  });

  it('records @Roles and @CarrierOnly in the route config, keeping what else is there', () => {
    class Routes {
      @Roles(ApiKeyRole.Operator)
      operate(): void {}

      @CarrierOnly()
      report(): void {}

      plain(): void {}
    }
    Reflect.defineMetadata(
      FASTIFY_ROUTE_CONFIG_METADATA,
      { rateLimit: false },
      Routes.prototype.report,
    );
    CarrierOnly()(Routes.prototype, 'report', {
      value: Routes.prototype.report,
    } as TypedPropertyDescriptor<unknown>);

    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Routes.prototype.operate)).toEqual({
      consignAccess: { roles: [ApiKeyRole.Operator] },
    });
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Routes.prototype.report)).toEqual({
      rateLimit: false,
      consignAccess: { carrierOnly: true },
    });
    expect(
      Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Routes.prototype.plain),
    ).toBeUndefined();
  });
});
