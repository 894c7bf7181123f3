import { createHash, randomUUID } from 'node:crypto';
import { ApiHeader, DECORATORS } from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '@consign/config';
import { CommandStamp } from '@consign/bus';
import { ApiError } from '../http/api-error';
import { wasReplayed } from '../http/gateway-bus';
import type { Principal } from '../auth/api-key.service';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const IDEMPOTENT = 'consignIdempotent' as const;
const SLOT = 'consignCommand' as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from the route table's `idempotent`: the route creates or changes something. */
    [IDEMPOTENT]?: true;
  }
}

/** What an idempotent route's request carries to its handler and its onSend hook. */
interface CommandSlot {
  stamp: CommandStamp;
  /** The merchant's key this request holds in this process (InFlightKeys), until it answers. */
  held?: string;
}

type IdempotentRequest = FastifyRequest & {
  [SLOT]?: CommandSlot;
  principal?: Principal;
};

const DOCUMENTED = {
  header:
    'Makes the request safe to retry: 1 to 255 printable ASCII characters (e.g. a UUID), unique per ' +
    'request and merchant, kept at least 24 hours. The same key with the same request answers the ' +
    'first answer again, with `Idempotent-Replayed: true`, and never carries the request out ' +
    'twice, even after a 504; the same key with another request of the same kind of resource ' +
    '(products, orders, inbound orders, labels, webhooks) is a 422; while the first request with ' +
    'the key is in progress, a 409 (or, on another gateway process, the first answer once it is ' +
    'in). An answer with status 400 (the request was invalid), 429 or 5xx (not known to be carried ' +
    'out) is not kept: a retry runs again, carried out at most once.',
  409: 'Conflict: with existing data or a state the change is not allowed from (the message says which); or a request with this Idempotency-Key is still in progress (retry later).',
  422: 'The Idempotency-Key was already used for a different request (another operation or body); or a valid request that cannot be served as asked.',
  504:
    'A service did not answer in time. The request carried a deadline (now + the gateway timeout): ' +
    'a service neither starts nor commits it after that, so a 504 means it was not carried out, ' +
    'unless it committed just before the deadline. Retry with the same Idempotency-Key: you get ' +
    'its outcome either way, and it is never carried out twice.',
} as const;

/**
 * Documents a route that creates or changes something (`idempotent: true` in the route table):
 * the Idempotency-Key header and its 409, 422 and 504 answers. Applied after @ApiEnvelope, which
 * it completes.
 */
export function ApiIdempotent(): MethodDecorator {
  return (target, key, descriptor) => {
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: DOCUMENTED.header,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    })(target, key, descriptor);
    const handler = descriptor.value as object;
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

/** The command id and deadline of an idempotent route's request, for GatewayBus.call. */
export function commandOf(request: FastifyRequest): CommandStamp {
  const slot = (request as IdempotentRequest)[SLOT];
  if (!slot) throw new Error('a command stamp is only available on idempotent routes');
  return slot.stamp;
}

/** The route config of a route that creates or changes something (see handleIdempotency). */
export const IDEMPOTENT_ROUTE = { [IDEMPOTENT]: true } as const;

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
 * How much longer than its command's deadline a request holds its key in this process: it answers
 * (the result, or a 504) by the deadline and lets go then; this only bounds a hold whose answer
 * was never sent.
 */
const HOLD_GRACE_MS = 2000;

/**
 * The command id of a merchant's Idempotency-Key: the same on every retry, from every gateway
 * process, across restarts, and never another merchant's (a name-based UUID, version 8: the
 * first 128 bits of SHA-256 over the merchant and the key).
 */
export function idempotentCommandId(merchantId: number, key: string): string {
  const hash = createHash('sha256')
    .update(`consign idempotency-key\n${merchantId}\n${key}`)
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x80;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * How many holds may pile up before the ones that ran out are dropped: a hold is let go when its
 * request answers, so only a request that never answered leaves one behind.
 */
const PRUNE_AT = 10_000;

/** The merchants' keys held by requests in progress in this process, each until a time. */
export class InFlightKeys {
  private readonly held = new Map<string, number>();

  /** Holds the key until `until` (epoch ms), unless a request holds it now; whether it did. */
  take(id: string, until: number, now: number): boolean {
    const current = this.held.get(id);
    if (current !== undefined && current > now) return false;
    if (current === undefined && this.held.size >= PRUNE_AT) this.prune(now);
    this.held.set(id, until);
    return true;
  }

  /** How many keys are held (for tests). */
  get size(): number {
    return this.held.size;
  }

  private prune(now: number): void {
    for (const [id, until] of this.held) if (until <= now) this.held.delete(id);
  }

  release(id: string): void {
    this.held.delete(id);
  }
}

/**
 * House rule: every route that creates or changes something (`idempotent: true`) honours
 * `Idempotency-Key`, Stripe's way, with the owning service's command ledger as the record
 * (docs/operations.md). Two Fastify hooks, registered after authentication (the key is the
 * merchant's) and before the handler:
 *
 * - preHandler: gives the request its command id and deadline. Without a key, a new id. With one,
 *   the id derived from the merchant and the key (idempotentCommandId), the same on every retry:
 *   the service carries the command out once and answers every later request with that id from
 *   its record (the same request: the first answer, `Reply.replayed`; another one: 422). While a
 *   request with the key is in progress in this process, another gets 409 without going further.
 * - onSend: lets go of the key, and marks an answer that came from the service's record with
 *   `Idempotent-Replayed: true`.
 *
 * No statement of its own: a keyed request costs what a request without a key costs.
 */
export function handleIdempotency(app: NestFastifyApplication): void {
  const config = app.get(AppConfig);
  const inFlight = new InFlightKeys();
  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest(SLOT, undefined);

  fastify.addHook(
    'preHandler',
    (request: IdempotentRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (!request.routeOptions.config[IDEMPOTENT]) return done();
      const now = Date.now();
      const deadline = now + config.BUS_TIMEOUT_MS;
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      if (header === undefined) {
        request[SLOT] = { stamp: { id: randomUUID(), deadline } };
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
      const held = `${principal.merchantId} ${header}`;
      if (!inFlight.take(held, deadline + HOLD_GRACE_MS, now))
        return done(
          new ApiError(
            409,
            'A request with this Idempotency-Key is still in progress: retry later.',
            {
              'retry-after': '1',
            },
          ),
        );
      request[SLOT] = {
        stamp: { id: idempotentCommandId(principal.merchantId, header), deadline },
        held,
      };
      return done();
    },
  );

  // A callback hook, not an async one: it runs on every response.
  fastify.addHook(
    'onSend',
    (
      request: IdempotentRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload: unknown) => void,
    ) => {
      const slot = request[SLOT];
      if (!slot?.held) return done(null, payload);
      // Once per request, whatever sends next (an error answer sent after a failed send).
      inFlight.release(slot.held);
      slot.held = undefined;
      if (wasReplayed(slot.stamp)) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      done(null, payload);
    },
  );
}
