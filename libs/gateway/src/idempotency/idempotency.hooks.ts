import { randomUUID } from 'node:crypto';
import { ExecutionContext, Logger, createParamDecorator } from '@nestjs/common';
import { ApiHeader, DECORATORS } from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AppConfig,
  CommandStamp,
  TooDeeplyNestedError,
  requestFingerprint,
} from '@consign/platform';
import { ApiError } from '../http/api-error';
import { addRouteConfig } from '../http/route-config';
import type { Principal } from '../auth/api-key.service';
import { HeldKey, IdempotencyStore, finishOf } from './idempotency.store';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const IDEMPOTENT = 'consignIdempotent' as const;
const SLOT = 'consignCommand' as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @Idempotent(): the route creates or changes something. */
    [IDEMPOTENT]?: true;
  }
}

/** What an idempotent route's request carries to its handler and its onSend hook. */
interface CommandSlot {
  stamp: CommandStamp;
  held?: HeldKey;
}

type IdempotentRequest = FastifyRequest & {
  [SLOT]?: CommandSlot;
  principal?: Principal;
};

const DOCUMENTED = {
  header:
    'Makes the request safe to retry: 1 to 255 printable ASCII characters (e.g. a UUID), unique per ' +
    'request and merchant, kept 24 hours. The same key with the same request answers the first ' +
    'answer again, with `Idempotent-Replayed: true`, and never carries the request out twice, even ' +
    'after a 504; the same key with another request is a 422; while the first request with the key ' +
    'is in progress, a 409. An answer with status 400 (the request was invalid) or 5xx (not known ' +
    'to be carried out) is not kept: a retry runs again, carried out at most once.',
  409: 'Conflict: with existing data or a state the change is not allowed from (the message says which); or a request with this Idempotency-Key is still in progress (retry later).',
  422: 'The Idempotency-Key was already used for a different request (another path or body); or a valid request that cannot be served as asked.',
  504:
    'A service did not answer in time. The request carried a deadline (now + the gateway timeout): ' +
    'a service neither starts nor commits it after that, so a 504 means it was not carried out, ' +
    'unless it committed just before the deadline. Retry with the same Idempotency-Key: you get ' +
    'its outcome either way, and it is never carried out twice.',
} as const;

/**
 * Marks a route that creates or changes something: it honours `Idempotency-Key` (see
 * handleIdempotency) and its request carries a command id and deadline to the service (@Command).
 * Documents the header and its 409, 422 and 504 answers in the API document. Put it above
 * @ApiEnvelope, which it completes.
 */
export function Idempotent(): MethodDecorator {
  return (target, key, descriptor) => {
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: DOCUMENTED.header,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    })(target, key, descriptor);
    const handler = descriptor.value as object;
    addRouteConfig(handler, { [IDEMPOTENT]: true });
    // Completes the responses @ApiEnvelope declared (swagger keeps them by status).
    const responses: Record<string, Record<string, unknown>> = Reflect.getMetadata(
      DECORATORS.API_RESPONSE,
      handler,
    ) ?? {};
    const completed = { ...responses };
    for (const status of [409, 422, 504] as const) {
      const current = responses[status] ?? {};
      completed[status] = {
        ...current,
        description: DOCUMENTED[status],
        example: current.example ?? { code: status, message: exampleOf(status), data: null },
        // Every failure has the error envelope's schema, which the 400 of every route carries.
        schema: current.schema ?? responses[400]?.schema,
      };
    }
    completed[200] = {
      ...responses[200],
      headers: {
        'Idempotent-Replayed': {
          description:
            '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    };
    Reflect.defineMetadata(DECORATORS.API_RESPONSE, completed, handler);
    return descriptor;
  };
}

function exampleOf(status: 409 | 422 | 504): string {
  switch (status) {
    case 409:
      return 'A request with this Idempotency-Key is still in progress: retry later.';
    case 422:
      return 'This Idempotency-Key was already used for a different request.';
    case 504:
      return 'Service timed out.';
  }
}

/** The command id and deadline of an @Idempotent route's request, for GatewayBus.call. */
export const Command = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CommandStamp => {
    const slot = context.switchToHttp().getRequest<IdempotentRequest>()[SLOT];
    if (!slot) throw new Error('@Command() is only available on @Idempotent() routes');
    return slot.stamp;
  },
);

/** An Idempotency-Key as the house rule allows: 1 to 255 printable ASCII characters. */
export function isValidIdempotencyKey(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const length = value.length;
  if (length === 0 || length > IDEMPOTENCY_KEY_MAX_LENGTH) return false;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * House rule: every route that creates or changes something (@Idempotent) honours
 * `Idempotency-Key`, Stripe's way. Two Fastify hooks, registered after authentication (the key
 * is the merchant's) and before the handler:
 *
 * - preHandler: gives the request its command id and deadline. Without a key, a new id. With
 *   one, the merchant's record of the key decides: new (or expired, or left by a request that
 *   ended in 5xx or by a gateway that died): this request holds it and sends its command id
 *   (the same on every retry); the same request answered before: that answer again, with
 *   `Idempotent-Replayed: true`; a different request (method, path or canonical body): 422;
 *   held by a request in progress: 409.
 * - onSend: records how the holding request ended (see finishOf): its answer; or, for a 400,
 *   nothing (the key may be used afresh); or, for a 5xx, the key released with its command id,
 *   so a retry is deduplicated by the service that may have carried it out.
 */
export function handleIdempotency(app: NestFastifyApplication): void {
  const store = app.get(IdempotencyStore);
  const config = app.get(AppConfig);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest(SLOT, undefined);

  fastify.addHook(
    'preHandler',
    (request: IdempotentRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      if (!request.routeOptions.config[IDEMPOTENT]) return done();
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      if (header === undefined) {
        request[SLOT] = {
          stamp: { id: randomUUID(), deadline: Date.now() + config.BUS_TIMEOUT_MS },
        };
        return done();
      }
      const principal = request.principal;
      // Keys are scoped to a merchant; an admin key acts for none (its routes are not marked).
      if (!principal || principal.merchantId === null) return done();
      if (!isValidIdempotencyKey(header))
        return done(
          new ApiError(
            400,
            `Validation failed: the Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
          ),
        );
      let fingerprint: string;
      try {
        fingerprint = requestFingerprint(
          `${request.method} ${request.url.split('?')[0]}`,
          request.body,
        );
      } catch (error: unknown) {
        if (error instanceof TooDeeplyNestedError)
          return done(new ApiError(400, `Validation failed: the body is ${error.message}.`));
        return done(error as Error);
      }
      store.claim({ merchantId: principal.merchantId, key: header, fingerprint }).then(
        (outcome) => {
          switch (outcome.kind) {
            case 'held':
              request[SLOT] = {
                stamp: { id: outcome.held.commandId, deadline: outcome.held.deadline },
                held: outcome.held,
              };
              return done();
            case 'replay':
              // Answered here: a hook that replies does not call done.
              reply
                .status(outcome.status)
                .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
                .header('content-type', 'application/json; charset=utf-8')
                .send(outcome.body);
              return;
            case 'mismatch':
              return done(
                new ApiError(422, 'This Idempotency-Key was already used for a different request.'),
              );
            case 'in_flight':
              return done(
                new ApiError(
                  409,
                  'A request with this Idempotency-Key is still in progress: retry later.',
                  { 'retry-after': '1' },
                ),
              );
          }
        },
        (error: unknown) => done(error as Error),
      );
    },
  );

  const logger = new Logger('Idempotency');
  // A callback hook, not an async one: it runs on every response, and only idempotent requests
  // holding a key need a promise.
  fastify.addHook(
    'onSend',
    (
      request: IdempotentRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload: unknown) => void,
    ) => {
      const slot = request[SLOT];
      const held = slot?.held;
      if (!slot || !held) return done(null, payload);
      // Once per request, whatever sends next (an error answer sent after a failed send).
      slot.held = undefined;
      // A record left in flight is released by its lock's expiry: the answer still goes out.
      store.finish(held, finishOf(reply.statusCode, payload)).then(
        () => done(null, payload),
        (error: unknown) => {
          logger.warn(`recording the answer to an idempotent request failed: ${String(error)}`);
          done(null, payload);
        },
      );
    },
  );
}
