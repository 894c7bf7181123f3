import { Body, Controller, Delete, Get, Param, Post, Put, Query, Type } from '@nestjs/common';
import {
  ApiExtension,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyRole } from '@consign/contracts';
import { ApiIdempotent } from '../idempotency/idempotency.hooks';
import { ApiEnvelope, ApiErrors } from './api-envelope';
import { AnyRoute, HttpMethod, PathParam, RouteGroup, isRawResponse } from './route-table';

const METHOD_DECORATORS: Record<HttpMethod, (path?: string) => MethodDecorator> = {
  GET: Get,
  POST: Post,
  PUT: Put,
  DELETE: Delete,
};

/**
 * The route table as @nestjs/swagger reads an application: one documentation-only controller per
 * group, named `<group>Controller` (the operation ids clients know), one method per route
 * carrying the route's method and path, its parameters, body and query contracts, and its
 * documented answers. Nothing runs them: the gateway serves the table itself (apiRoutes).
 */
export function documentationControllers(groups: readonly RouteGroup[]): Type<unknown>[] {
  return groups.map((group) => {
    const controller = class {};
    Object.defineProperty(controller, 'name', { value: `${group.name}Controller` });
    for (const apiRoute of group.routes) documentRoute(controller, apiRoute);
    ApiTags(group.tag)(controller);
    Controller(group.prefix)(controller);
    return controller;
  });
}

/** The security scheme of each role a route may be open to alone. */
const ROLE_SCHEMES: Partial<Record<ApiKeyRole, string>> = {
  [ApiKeyRole.Admin]: 'admin',
  [ApiKeyRole.Operator]: 'operator',
};

/** The security scheme of a route's access (the merchant's key when absent). */
function securityOf(apiRoute: AnyRoute): string | undefined {
  const access = apiRoute.access;
  if (!access) return undefined;
  if ('carrier' in access) return 'carrier';
  return access.roles.length === 1 ? ROLE_SCHEMES[access.roles[0]] : undefined;
}

function documentRoute(controller: Type<unknown>, apiRoute: AnyRoute): void {
  const prototype = controller.prototype as Record<string, unknown>;
  const key = apiRoute.name;
  const method = function documentedOnly(): never {
    throw new Error(`${controller.name}.${key} is documentation only`);
  };
  // Swagger finds a method's parameters by the function's name.
  Object.defineProperty(method, 'name', { value: key });
  prototype[key] = method;
  // Arguments as a controller method would declare them: path parameters, query, body.
  const params = Object.entries(apiRoute.params ?? {}) as [string, PathParam<unknown>][];
  const types: unknown[] = [];
  const argumentDecorators: ParameterDecorator[] = [];
  params.forEach(([name]) => {
    argumentDecorators.push(Param(name));
    types.push(String);
  });
  if (apiRoute.query) {
    argumentDecorators.push(Query());
    types.push(apiRoute.query);
  }
  if (apiRoute.body) {
    argumentDecorators.push(Body());
    types.push(apiRoute.body);
  }
  // Last argument first, as TypeScript applies them: swagger lists the parameters in the reverse
  // of the order their metadata was recorded, so this keeps the document's order (path, query).
  for (let index = argumentDecorators.length - 1; index >= 0; index--)
    argumentDecorators[index](prototype, key, index);
  Reflect.defineMetadata('design:paramtypes', types, prototype, key);

  const response = apiRoute.response;
  const decorators: MethodDecorator[] = [];
  const inputs = { body: apiRoute.body !== undefined, pathParams: params.length > 0 };
  if (isRawResponse(response)) {
    decorators.push(
      ApiErrors(response.raw.errors, inputs),
      ApiResponse({
        status: 200,
        description: response.raw.description,
        content: response.raw.content,
      }),
      ApiExtension('x-raw-body', true),
      ApiProduces(...Object.keys(response.raw.content), 'application/json'),
    );
  } else
    decorators.push(
      ApiEnvelope(response.data, {
        description: response.description,
        errors: response.errors,
        ...inputs,
      }),
    );
  for (const [name, param] of [...params].reverse())
    decorators.push(ApiParam({ name, description: param.description, schema: param.schema }));
  for (const query of [...(apiRoute.queryDocs ?? [])].reverse()) decorators.push(ApiQuery(query));
  if (apiRoute.idempotent) decorators.push(ApiIdempotent());
  decorators.push(
    ApiOperation({
      summary: apiRoute.summary,
      ...(apiRoute.description ? { description: apiRoute.description } : {}),
    }),
  );
  const security = securityOf(apiRoute);
  if (security) decorators.push(ApiSecurity(security));
  decorators.push(METHOD_DECORATORS[apiRoute.method](apiRoute.path));

  const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
  for (const decorate of decorators) decorate(prototype, key, descriptor);
}
