import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/**
 * Adds entries to a handler's Fastify route `config` (Nest's Fastify adapter passes the handler's
 * FASTIFY_ROUTE_CONFIG_METADATA to the route it registers), keeping what other decorators put
 * there. Hooks then read them from `request.routeOptions.config` with the route they matched.
 */
export function addRouteConfig(handler: object, entries: Record<string, unknown>): void {
  const config: Record<string, unknown> =
    Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {};
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, ...entries }, handler);
}

/** The route config a handler carries so far. */
export function routeConfigOf(handler: object): Record<string, unknown> {
  return Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {};
}
