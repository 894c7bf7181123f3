import type {
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
} from 'fastify';
import { Logger } from '@nestjs/common';
import { routeAccessConfig } from '../auth/api-key.auth';
import { IDEMPOTENT_ROUTE } from '../idempotency/idempotency.hooks';
import { asHttpError, sendError } from './api-exception.filter';
import { bodyOf, queryOf } from './route-inputs';
import { TAKES_BODY } from './edge-rules';
import type { GatewayBus } from './gateway-bus';
import { sendRaw } from './raw-reply';
import { AnyRoute, RawBody, RouteCall, RouteGroup, isRawResponse, urlOf } from './route-table';

export interface ApiRoutesOptions {
  groups: readonly RouteGroup[];
  bus: GatewayBus;
}

/**
 * The route table served by Fastify: each route of each group, registered as a Fastify route
 * whose handler validates the path parameters, the query and the body (a 400 naming the field),
 * then runs the route's handler. Who may call it (the authentication hook) and whether it honours
 * Idempotency-Key (the idempotency hooks) ride in the route's `config`, read by the hooks with the
 * route they matched; the envelope is a preSerialization hook. Failures are answered by the
 * plugin's own error handler, as the application's exception filter answers Nest's routes.
 * Nothing of Nest's router runs.
 */
export const apiRoutes: FastifyPluginCallback<ApiRoutesOptions> = (
  fastify,
  { groups, bus },
  done,
) => {
  const logger = new Logger('HTTP');
  // Failures of these routes (their hooks', parsers' and handlers') in the envelope.
  fastify.setErrorHandler((error, request, reply) =>
    sendError(reply, request, asHttpError(error), logger),
  );
  for (const group of groups)
    for (const apiRoute of group.routes) {
      const url = urlOf(group, apiRoute);
      fastify.route({
        method: apiRoute.method,
        url,
        handler: handlerOf(apiRoute, bus, url.includes(':')),
        config: {
          ...routeAccessConfig(apiRoute.access),
          ...(apiRoute.idempotent ? IDEMPOTENT_ROUTE : {}),
          [TAKES_BODY]: apiRoute.body !== undefined,
        },
      });
    }
  done();
};

type ReadParams = (request: FastifyRequest) => unknown;

function handlerOf(apiRoute: AnyRoute, bus: GatewayBus, hasParams: boolean): RouteHandlerMethod {
  const params = paramsOf(apiRoute);
  const query = apiRoute.query ? queryOf(apiRoute.query) : undefined;
  const body = apiRoute.body ? bodyOf(apiRoute.body) : undefined;
  const raw = isRawResponse(apiRoute.response);
  return function handle(request: FastifyRequest, reply: FastifyReply) {
    // As Nest's Fastify adapter does: an empty path parameter ('/label//x') matches no route.
    if (hasParams && hasEmptyParam(request.params)) {
      reply.callNotFound();
      return undefined;
    }
    // Checked in the order a route names them: path parameters, query, body.
    const pathValues = params === undefined ? undefined : params(request);
    const queryValue = query === undefined ? undefined : query(request.query);
    const bodyValue = body === undefined ? undefined : body(request.body);
    const call = new RouteCall(bus, request, reply, bodyValue, queryValue, pathValues);
    const result = apiRoute.handle(call);
    if (!raw) return result;
    return Promise.resolve(result).then((bytes) => sendRaw(reply, bytes as RawBody));
  };
}

/** The route's path parameters, each parsed by its definition (in the path's order). */
function paramsOf(apiRoute: AnyRoute): ReadParams | undefined {
  const definitions = Object.entries(apiRoute.params ?? {}) as [
    string,
    { parse(text: string, name: string): unknown },
  ][];
  if (definitions.length === 0) return undefined;
  return (request) => {
    const texts = request.params as Record<string, string>;
    const values: Record<string, unknown> = {};
    for (const [name, param] of definitions) values[name] = param.parse(texts[name], name);
    return values;
  };
}

function hasEmptyParam(params: unknown): boolean {
  const values = params as Record<string, string>;
  for (const name in values) if (values[name] === '' && name !== '*') return true;
  return false;
}
