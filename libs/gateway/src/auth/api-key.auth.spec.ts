import 'reflect-metadata';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { API_ROUTE_GROUPS, GatewayModule } from '../gateway.module';
import { readRouteGroups } from '../http/route-table';
import { API_VERSION_PREFIXES, isApiRoute } from '../http/api-routes';
import { ApiKeyRole } from '@consign/contracts';
import { routeAccessConfig } from './api-key.auth';
import { TRACKING_PAGE_PATH, TrackingPageController } from '../tracking/tracking-page.controller';

describe('route access', () => {
  it('puts every route of the table under an API version, where a credential is required; the only controller is the public tracking page', () => {
    const prefixes = readRouteGroups(API_ROUTE_GROUPS).map((group) => group.prefix);
    expect(prefixes.length).toBeGreaterThan(10);
    for (const prefix of prefixes)
      expect({ prefix, api: isApiRoute(`/${prefix}/`) }).toEqual({ prefix, api: true });
    // Open by design: its unguessable token is the credential, and it shows no personal data.
    expect(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, GatewayModule)).toEqual([
      TrackingPageController,
    ]);
    expect(isApiRoute(`/${TRACKING_PAGE_PATH}/`)).toBe(false);
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

  it("puts a route's access in its Fastify config, where the authentication hook reads it", () => {
    expect(routeAccessConfig(undefined)).toEqual({});
    expect(routeAccessConfig({ roles: [ApiKeyRole.Operator] })).toEqual({
      consignAccess: { roles: [ApiKeyRole.Operator] },
    });
    expect(routeAccessConfig({ carrier: true })).toEqual({ consignAccess: { carrierOnly: true } });
  });
});
