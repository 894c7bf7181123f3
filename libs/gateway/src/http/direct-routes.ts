import { ArgumentMetadata, Controller, PipeTransform, Type } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  ROUTE_ARGS_METADATA,
  SSE_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { TAKES_BODY } from './edge-rules';
import { addRouteConfig } from './route-config';

const DIRECT = 'consignDirect' as const;

/** Which controller method a route runs (set by @ApiController on each of its routes). */
interface DirectRoute {
  controller: Type<object>;
  method: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    [DIRECT]?: DirectRoute;
  }
}

/**
 * `@Controller(path)` for the gateway's API controllers, whose routes then run directly (see
 * runApiRoutesDirectly). Each route method is marked in its Fastify route config.
 */
export function ApiController(path: string): ClassDecorator {
  return (target) => {
    Controller(path)(target);
    const prototype = target.prototype as Record<string, unknown>;
    for (const method of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[method];
      if (method === 'constructor' || typeof handler !== 'function') continue;
      if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      addRouteConfig(handler, {
        [DIRECT]: { controller: target as unknown as Type<object>, method },
      });
    }
  };
}

type Resolve = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** What Nest's route metadata may ask of a directly run route; anything else stops start-up. */
const UNSUPPORTED_ON_CLASS = [
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  EXCEPTION_FILTERS_METADATA,
];
const UNSUPPORTED_ON_METHOD = [
  ...UNSUPPORTED_ON_CLASS,
  HTTP_CODE_METADATA,
  HEADERS_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  SSE_METADATA,
];

/**
 * The gateway's API routes (@ApiController) run their controller method straight from Fastify:
 * each parameter is read and put through its pipes by a function made once per route from Nest's
 * own parameter metadata (@Body, @Param, @Query with pipe instances, and custom parameter
 * decorators), then the method is called. Nest's router would put every request through its
 * guard, interceptor, pipe and response layers, a dozen promises and ≈ 15 µs a request (see
 * docs/benchmarks.md), for features these routes do not use: authentication is a Fastify hook
 * (authenticateApiRoutes), the envelope another, and errors still reach the application's
 * exception filter through Fastify's error handler, which Nest points at it. A route asking for
 * anything else (a guard, interceptor, pipe or filter of its own, @HttpCode, @Header, @Redirect,
 * @Render, @Sse, another kind of parameter) stops start-up rather than be run without it. Global
 * guards, interceptors and pipes would not apply either: the gateway registers none.
 *
 * Call before the routes are registered (app.init or listen).
 */
export function runApiRoutesDirectly(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route: RouteOptions) => {
      const direct = route.config?.[DIRECT];
      if (!direct) return;
      const instance = app.get(direct.controller, { strict: false });
      route.handler = directHandler(instance, direct, route.url);
      route.config = { ...route.config, [TAKES_BODY]: takesBody(direct) };
    });
}

function directHandler(
  instance: object,
  { controller, method }: DirectRoute,
  url: string,
): (request: FastifyRequest, reply: FastifyReply) => unknown {
  const callback = (instance as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
  refuseUnsupported(controller, method, callback);
  const resolvers = parameterResolvers(controller, method, callback);
  const count = resolvers.length;
  const hasParams = url.includes(':');
  return function handle(request, reply) {
    // As Nest's Fastify adapter: an empty path parameter ('/label//x') matches no route.
    if (hasParams && hasEmptyParam(request.params)) {
      reply.callNotFound();
      return undefined;
    }
    const args = new Array<unknown>(count);
    let pending = false;
    for (let i = 0; i < count; i++) {
      const value = resolvers[i](request, reply);
      if (isThenable(value)) pending = true;
      args[i] = value;
    }
    if (pending) return Promise.all(args).then((values) => callback.apply(instance, values));
    return callback.apply(instance, args);
  };
}

/** Whether the route's method has a @Body parameter (the JSON parser reads an empty body as {}). */
function takesBody({ controller, method }: DirectRoute): boolean {
  const metadata: Record<string, unknown> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
  return Object.keys(metadata).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

function hasEmptyParam(params: unknown): boolean {
  const values = params as Record<string, string>;
  for (const name in values) if (values[name] === '' && name !== '*') return true;
  return false;
}

function refuseUnsupported(controller: Type<object>, method: string, callback: object): void {
  const found = [
    ...UNSUPPORTED_ON_CLASS.filter((key) => hasMetadata(key, controller)),
    ...UNSUPPORTED_ON_METHOD.filter((key) => hasMetadata(key, callback)),
  ];
  if (found.length > 0)
    throw new Error(
      `${controller.name}.${method}: ${found.join(', ')} is not supported on an @ApiController route`,
    );
}

function hasMetadata(key: string, target: object): boolean {
  const value: unknown = Reflect.getMetadata(key, target);
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}

interface ParamMetadata {
  index: number;
  data?: string;
  pipes: unknown[];
  factory?: (data: unknown, context: ExecutionContextHost) => unknown;
}

/** One function per argument of the method, in order. */
function parameterResolvers(controller: Type<object>, method: string, callback: object): Resolve[] {
  const metadata: Record<string, ParamMetadata> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, method);
  const resolvers: Resolve[] = [];
  for (const [key, param] of Object.entries(metadata)) {
    const where = `${controller.name}.${method} argument ${param.index}`;
    const custom = key.includes(CUSTOM_ROUTE_ARGS_METADATA);
    const type = custom ? undefined : Number(key.split(':')[0]);
    const extract = custom
      ? customValue(controller, callback, param)
      : builtInValue(type as RouteParamtypes, param.data, where);
    const pipes = param.pipes.map((pipe) => {
      if (!isPipeInstance(pipe)) throw new Error(`${where}: only pipe instances are supported`);
      return pipe;
    });
    const argument: ArgumentMetadata = {
      type: custom ? 'custom' : (PARAM_TYPES.get(type as RouteParamtypes) ?? 'custom'),
      metatype: types?.[param.index] as Type<unknown> | undefined,
      data: param.data,
    };
    resolvers[param.index] = pipes.length === 0 ? extract : piped(extract, pipes, argument);
  }
  for (let i = 0; i < resolvers.length; i++)
    if (!resolvers[i])
      throw new Error(`${controller.name}.${method}: argument ${i} has no decorator`);
  return resolvers;
}

const PARAM_TYPES = new Map<RouteParamtypes, ArgumentMetadata['type']>([
  [RouteParamtypes.BODY, 'body'],
  [RouteParamtypes.QUERY, 'query'],
  [RouteParamtypes.PARAM, 'param'],
]);

function builtInValue(type: RouteParamtypes, data: string | undefined, where: string): Resolve {
  switch (type) {
    case RouteParamtypes.BODY:
      if (data !== undefined) throw new Error(`${where}: @Body(property) is not supported`);
      return (request) => request.body;
    case RouteParamtypes.PARAM:
      return data === undefined
        ? (request) => request.params
        : (request) => (request.params as Record<string, string>)[data];
    case RouteParamtypes.QUERY:
      return data === undefined
        ? (request) => request.query
        : (request) => (request.query as Record<string, unknown>)[data];
    default:
      throw new Error(`${where}: only @Body, @Param, @Query and custom decorators are supported`);
  }
}

/** A custom parameter decorator's factory, given the HTTP context Nest would give it. */
function customValue(controller: Type<object>, callback: object, param: ParamMetadata): Resolve {
  const factory = param.factory;
  if (typeof factory !== 'function') return () => null;
  const handler = callback as (...args: unknown[]) => unknown;
  return (request, reply) => {
    const context = new ExecutionContextHost([request, reply], controller, handler);
    context.setType('http');
    return factory(param.data, context);
  };
}

function piped(extract: Resolve, pipes: PipeTransform[], argument: ArgumentMetadata): Resolve {
  return (request, reply) => {
    let value = extract(request, reply);
    for (let i = 0; i < pipes.length; i++) {
      if (isThenable(value)) {
        const rest = pipes.slice(i);
        return rest.reduce<Promise<unknown>>(
          (previous, pipe) => previous.then((v) => pipe.transform(v, argument)),
          value,
        );
      }
      value = pipes[i].transform(value, argument);
    }
    return value;
  };
}

function isPipeInstance(pipe: unknown): pipe is PipeTransform {
  return (
    typeof pipe === 'object' &&
    pipe !== null &&
    typeof (pipe as { transform?: unknown }).transform === 'function'
  );
}

function isThenable(value: unknown): value is Promise<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
