import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClassConstructor } from 'class-transformer';
import type { ApiQueryOptions, SchemaObject } from '@nestjs/swagger';
import type { CommandStamp } from '@consign/bus';
import {
  isIdempotentCommand,
  type ApiKeyRole,
  type CommandReply,
  type CommandRequest,
  type CommandTopic,
} from '@consign/contracts';
import type { EnvelopeData, ErrorStatus } from './api-envelope';
import type { RawBody } from './raw-reply';
import type { GatewayBus } from './gateway-bus';
import { carrierOf, merchantIdOf } from '../auth/api-key.auth';
import { commandOf } from '../idempotency/idempotency.hooks';
import { publicOriginOf } from '../tracking/public-origin';
import { correlationIdOf } from './request-context';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route. Absent: any merchant's API key (an admin key gets a 403). `roles`: only
 * keys of these roles. `carrier`: only a carrier's credential (a merchant's key gets a 403).
 */
export type RouteAccess = { roles: readonly ApiKeyRole[] } | { carrier: true };

/** A path parameter: how its text becomes the handler's value (or a 400), and its documentation. */
export interface PathParam<T> {
  parse(text: string, name: string): T;
  description: string;
  schema: SchemaObject;
}

/** A success answered in the envelope: `data` of this type. */
export interface EnvelopeResponse {
  data: EnvelopeData;
  description: string;
  /** Failures beyond the common ones (those of a body and of a path parameter are added). */
  errors?: ErrorStatus[];
}

/** A success answered as a document's bytes (the handler returns a RawBody); failures in the envelope. */
export interface RawResponse {
  raw: {
    description: string;
    /** The OpenAPI `content` of the 200 answer, by media type. */
    content: Record<string, { schema: SchemaObject; example?: string }>;
    errors?: ErrorStatus[];
  };
}

/**
 * What a route's handler gets: the request's validated body, query and path parameters, and the
 * request's facts, each read when asked for (a route that does not use the merchant does not
 * look it up).
 */
export class RouteCall<B = undefined, Q = undefined, P = undefined> {
  constructor(
    /** The way to the services. */
    readonly bus: GatewayBus,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly body: B,
    readonly query: Q,
    readonly params: P,
  ) {}

  /** The authenticated merchant's id (a 403 for a key that acts for no merchant). */
  get merchantId(): number {
    return merchantIdOf(this.request);
  }

  /** The carrier whose credential authenticated the request (`access: { carrier: true }`). */
  get carrier(): string {
    return carrierOf(this.request);
  }

  /** The command id and deadline of an idempotent route's request, for GatewayBus.call. */
  get command(): CommandStamp {
    return commandOf(this.request);
  }

  /** The request's correlation id, carried to the services. */
  get correlationId(): string {
    return correlationIdOf(this.request);
  }

  /** Where clients reach this API (public links are built on it). */
  get origin(): string {
    return publicOriginOf(this.request);
  }
}

/**
 * One operation of the client interface: its method and path, what it takes (each validated
 * before the handler runs, a 400 naming the field otherwise), who may call it and how the API
 * document describes it. `name` is the operation's name in its group: its OpenAPI operationId is
 * `<group>Controller_<name>`, as clients generated from the document know it.
 */
export interface RouteDefinition<B, Q, P> {
  name: string;
  method: HttpMethod;
  /** Below the group's prefix: '' or e.g. ':order_id/cancel'. */
  path: string;
  summary: string;
  description?: string;
  access?: RouteAccess;
  /**
   * Creates or changes something: honours Idempotency-Key; `command` travels with the request. A
   * route made by forward() has it when its command's definition is idempotent.
   */
  idempotent?: true;
  params?: { [K in keyof P]: PathParam<P[K]> };
  query?: ClassConstructor<Q & object>;
  /** Query parameters documented beyond the query contract's (their enums, say). */
  queryDocs?: ApiQueryOptions[];
  body?: ClassConstructor<B & object>;
  response: EnvelopeResponse | RawResponse;
}

/** A route and what it does: `handle` answers the call (see forward() for one that sends a command). */
export interface ApiRoute<
  B = undefined,
  Q = undefined,
  P = undefined,
  R = unknown,
> extends RouteDefinition<B, Q, P> {
  /** The command it sends, for a route made by forward(). */
  topic?: CommandTopic;
  handle(call: RouteCall<B, Q, P>): R | Promise<R>;
}

/**
 * A route that sends one command and answers its reply: the topic, the command's request made of
 * the call, the bus key (the merchant unless said) and, if the answer is not the reply itself,
 * what it is made of. It is idempotent when its command's definition is (isIdempotentCommand): its
 * command then carries the request's stamp.
 */
export interface ForwardedRoute<B, Q, P, K extends CommandTopic, R> extends Omit<
  RouteDefinition<B, Q, P>,
  'idempotent'
> {
  topic: K;
  request(call: RouteCall<B, Q, P>): CommandRequest<K>;
  key?(call: RouteCall<B, Q, P>): string | number;
  reply?(reply: CommandReply<K>, call: RouteCall<B, Q, P>): R;
  /**
   * A check before the command is sent (a question to another service, say): when it fails, its
   * error is the answer and the command is not sent.
   */
  before?(call: RouteCall<B, Q, P>): Promise<unknown>;
}

/** A set of routes under one path prefix and one tag of the API document. */
export interface RouteGroup {
  /** The group's name in operation ids (`Order` → `OrderController_create`). */
  readonly name: string;
  /** The tag of its operations in the API document. */
  readonly tag: string;
  /** The path below which its routes lie, e.g. '2025-07/cloud/order'. */
  readonly prefix: string;
  readonly routes: readonly AnyRoute[];
}

/** A route, with its body, query, parameters and result inferred from its definition. */
export function route<B = undefined, Q = undefined, P = undefined, R = unknown>(
  definition: ApiRoute<B, Q, P, R>,
): AnyRoute {
  return definition;
}

/** A route that forwards one command (ForwardedRoute), with its types inferred from its definition. */
export function forward<
  B = undefined,
  Q = undefined,
  P = undefined,
  K extends CommandTopic = CommandTopic,
  R = CommandReply<K>,
>(definition: ForwardedRoute<B, Q, P, K, R>): AnyRoute {
  const { request, key, reply, before, ...described } = definition;
  const idempotent = isIdempotentCommand(definition.topic);
  const send = (call: RouteCall<B, Q, P>): Promise<CommandReply<K> | R> => {
    const sent = call.bus.call(definition.topic, request(call), {
      key: key ? key(call) : call.merchantId,
      correlationId: call.correlationId,
      command: idempotent ? call.command : undefined,
    });
    return reply ? sent.then((answer) => reply(answer, call)) : sent;
  };
  const forwarded: ApiRoute<B, Q, P, CommandReply<K> | R> = {
    ...described,
    ...(idempotent ? { idempotent } : {}),
    handle: before ? (call) => before(call).then(() => send(call)) : send,
  };
  return forwarded as AnyRoute;
}

/** A route of any body, query, parameters and result: what a group lists. */
export type AnyRoute = ApiRoute<unknown, unknown, unknown, unknown>;

/** The full URL of a group's route, as Fastify matches it. */
export function urlOf(group: RouteGroup, apiRoute: Pick<ApiRoute, 'path'>): string {
  return `/${group.prefix}${apiRoute.path ? `/${apiRoute.path}` : ''}`;
}

export function isRawResponse(response: EnvelopeResponse | RawResponse): response is RawResponse {
  return 'raw' in response;
}

export type { RawBody };

/** Every route group of the gateway, as the application serves and documents them, and the bus they send on. */
export class RouteTable {
  constructor(
    readonly groups: readonly RouteGroup[],
    readonly bus: GatewayBus,
  ) {}
}

/**
 * The route groups made with inert stand-ins for their dependencies: for reading the table (the
 * API document, checks over it). Their handlers must not run.
 */
export function readRouteGroups(
  classes: readonly (new (...dependencies: never[]) => RouteGroup)[],
): RouteGroup[] {
  const inert = Object.freeze({});
  return classes.map((group) => {
    const make = group as unknown as new (...dependencies: unknown[]) => RouteGroup;
    return new make(...Array.from({ length: group.length }, () => inert));
  });
}
