import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { noteRequestMerchant } from '@consign/observability';
import { ApiError } from '../http/api-error';
import { isApiRoute } from '../http/api-routes';
import { ApiKeyRole } from '@consign/contracts';
import { ApiKeyService, Principal } from './api-key.service';
import { bearerTokenOf } from './bearer-token';
import { CarrierCredentialService } from './carrier-credential.service';

/**
 * Who may call a route of the API versions. Kept in the Fastify route's `config` (the route
 * table puts it there), so that the authentication hook reads it with the route it matched.
 */
interface RouteAccess {
  /** Only a carrier's credential (a merchant's key gets a 403). */
  carrierOnly?: true;
  /** Only keys of these roles (others get a 403). */
  roles?: readonly ApiKeyRole[];
}

const ACCESS = 'consignAccess' as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from the route table's `access` (routeAccessConfig); absent: any merchant key. */
    [ACCESS]?: RouteAccess;
  }
}

type AuthenticatedRequest = FastifyRequest & { principal?: Principal; carrier?: string };

/** The route config of a route of the table with this access (absent: any merchant key). */
export function routeAccessConfig(
  access: { roles: readonly ApiKeyRole[] } | { carrier: true } | undefined,
): { [ACCESS]?: RouteAccess } {
  if (!access) return {};
  return { [ACCESS]: 'carrier' in access ? { carrierOnly: true } : { roles: access.roles } };
}

const MISSING_KEY = 'Missing API key: send Authorization: Bearer <key>.';
const CHALLENGE = { 'www-authenticate': 'Bearer' };

/**
 * House rule: every route of the API versions needs `Authorization: Bearer <key>` (401 without
 * one or with an unknown one; 403 for a key of the wrong kind). A Fastify hook on the matched
 * route, after the body is read and before the handler, rather than a Nest guard: a global guard
 * puts every request, and in a standalone process every bus message, through Nest's guard
 * pipeline (several promises each); and a known key (cached) is decided here without a promise.
 * Routes outside the API versions (health probes, metrics, API docs) are open.
 */
export function authenticateApiRoutes(app: NestFastifyApplication): void {
  const keys = app.get(ApiKeyService);
  const carriers = app.get(CarrierCredentialService);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', (request: AuthenticatedRequest, _reply, done) => {
      const url = request.routeOptions.url;
      if (url === undefined || !isApiRoute(url)) return done();
      const access = request.routeOptions.config[ACCESS];
      const bearer = bearerTokenOf(request);
      if (!bearer) return done(new ApiError(401, MISSING_KEY, CHALLENGE));
      if (access?.carrierOnly) {
        authenticateCarrier(keys, carriers, request, bearer.token).then(() => done(), done);
        return;
      }
      const cached = keys.cachedPrincipal(bearer.token, bearer.hash);
      if (cached !== undefined) return done(admit(request, cached, access));
      keys
        .authenticate(bearer.token, bearer.hash)
        .then((principal) => done(admit(request, principal, access)), done);
    });
}

/** Sets the request's principal, or answers why not. */
function admit(
  request: AuthenticatedRequest,
  principal: Principal | null,
  access: RouteAccess | undefined,
): ApiError | undefined {
  if (!principal) return new ApiError(401, 'Invalid API key.', CHALLENGE);
  const roles = access?.roles;
  // A route open to any key is a merchant's: an admin key, which acts for no merchant, is not.
  if (roles ? !roles.includes(principal.role) : principal.role === ApiKeyRole.Admin)
    return new ApiError(
      403,
      principal.role === ApiKeyRole.Admin
        ? 'An admin key only manages the platform (/2026-05/cloud/admin/…): use a merchant key.'
        : 'This API key may not use this operation.',
    );
  request.principal = principal;
  noteRequestMerchant(request, principal.merchantId);
  return undefined;
}

async function authenticateCarrier(
  keys: ApiKeyService,
  carriers: CarrierCredentialService,
  request: AuthenticatedRequest,
  key: string,
): Promise<void> {
  const carrier = await carriers.authenticate(key);
  if (carrier) {
    request.carrier = carrier;
    return;
  }
  const principal = await keys.authenticate(key);
  if (principal)
    throw new ApiError(
      403,
      `${principal.role === ApiKeyRole.Admin ? 'An admin key' : 'A merchant API key'} may not report carrier events: use a carrier credential.`,
    );
  throw new ApiError(401, 'Invalid carrier credential.', CHALLENGE);
}

/** The authenticated merchant's id. */
export function merchantIdOf(request: FastifyRequest): number {
  const principal = (request as AuthenticatedRequest).principal;
  if (!principal) throw new ApiError(401, MISSING_KEY);
  if (principal.merchantId === null) throw new ApiError(403, 'This API key acts for no merchant.');
  return principal.merchantId;
}

/** The carrier whose credential authenticated the request (routes with `access: { carrier: true }`). */
export function carrierOf(request: FastifyRequest): string {
  const carrier = (request as AuthenticatedRequest).carrier;
  if (!carrier) throw new ApiError(401, 'Missing carrier credential.');
  return carrier;
}
