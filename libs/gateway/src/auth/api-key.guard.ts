import {
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  createParamDecorator,
} from '@nestjs/common';
import { PUBLIC_ROUTE } from '@consign/platform';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { ApiKeyRole } from './api-key.entity';
import { ApiKeyService, Principal } from './api-key.service';
import { bearerTokenOf } from './bearer-token';
import { CarrierCredentialService } from './carrier-credential.service';

const ROLES = 'consign:roles';
const CARRIER = 'consign:carrier';

/** A route only keys of these roles may call (operators' warehouse endpoints). */
export const Roles = (...roles: ApiKeyRole[]) => SetMetadata(ROLES, roles);
/** A route for carriers: a carrier credential, not a merchant's key (which gets a 403). */
export const CarrierOnly = () => SetMetadata(CARRIER, true);

type AuthenticatedRequest = FastifyRequest & { principal?: Principal; carrier?: string };

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- what ExecutionContext gives: a handler, a class
type RouteKey = Function;

interface RouteAccess {
  isPublic: boolean;
  carrierOnly: boolean;
  roles: ApiKeyRole[] | undefined;
}

/** `Authorization: Bearer <key>` on every route that is not @Public() (from @consign/platform); 401 otherwise. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly access = new WeakMap<RouteKey, WeakMap<RouteKey, RouteAccess>>();

  constructor(
    private readonly keys: ApiKeyService,
    private readonly carriers: CarrierCredentialService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // In a standalone process the services' bus handlers share the app; they are not HTTP routes.
    if (context.getType() !== 'http') return true;
    const access = this.accessOf(context.getHandler(), context.getClass());
    if (access.isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const bearer = bearerTokenOf(request);
    if (!bearer)
      throw new ApiError(401, 'Missing API key: send Authorization: Bearer <key>.', {
        'www-authenticate': 'Bearer',
      });
    if (access.carrierOnly) return this.authenticateCarrier(request, bearer.token);
    const principal = await this.keys.authenticate(bearer.token, bearer.hash);
    if (!principal) throw new ApiError(401, 'Invalid API key.', { 'www-authenticate': 'Bearer' });
    if (access.roles && !access.roles.includes(principal.role))
      throw new ApiError(403, 'This API key may not use this operation.');
    request.principal = principal;
    return true;
  }

  /**
   * A route's @Public, @CarrierOnly and @Roles, the handler's overriding the class's: read from
   * the decorators' metadata once per route (it is fixed once the classes are defined), not on
   * every request.
   */
  private accessOf(handler: RouteKey, controller: RouteKey): RouteAccess {
    let byController = this.access.get(handler);
    if (!byController) {
      byController = new WeakMap();
      this.access.set(handler, byController);
    }
    let access = byController.get(controller);
    if (!access) {
      const targets = [handler, controller];
      access = {
        isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true,
        carrierOnly: this.reflector.getAllAndOverride<boolean>(CARRIER, targets) === true,
        roles: this.reflector.getAllAndOverride<ApiKeyRole[] | undefined>(ROLES, targets),
      };
      byController.set(controller, access);
    }
    return access;
  }

  private async authenticateCarrier(request: AuthenticatedRequest, key: string): Promise<true> {
    const carrier = await this.carriers.authenticate(key);
    if (carrier) {
      request.carrier = carrier;
      return true;
    }
    if (await this.keys.authenticate(key))
      throw new ApiError(
        403,
        'A merchant API key may not report carrier events: use a carrier credential.',
      );
    throw new ApiError(401, 'Invalid carrier credential.', { 'www-authenticate': 'Bearer' });
  }
}

/** The authenticated merchant's id. */
export const MerchantId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): number => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new ApiError(401, 'Missing API key: send Authorization: Bearer <key>.');
    return principal.merchantId;
  },
);

/** The carrier whose credential authenticated the request (routes marked @CarrierOnly()). */
export const AuthenticatedCarrier = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const carrier = context.switchToHttp().getRequest<AuthenticatedRequest>().carrier;
    if (!carrier) throw new ApiError(401, 'Missing carrier credential.');
    return carrier;
  },
);
