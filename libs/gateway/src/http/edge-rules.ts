import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { errorEnvelope, hostileInputProblems, validationMessage } from '@consign/contracts';
import { ApiError } from './api-error';
import { answerClientError } from './client-errors';

/**
 * The edge of the HTTP interface (ARCHITECTURE.md: hostile input is stopped at the edge, URL
 * errors answer in the envelope): what Fastify itself would answer in its own shape, or let
 * through to the routes, is answered here in the envelope.
 */

/** Longest path parameter (an id is at most 16 digits, a carrier code 32 characters): else 414. */
export const MAX_PATH_PARAM_LENGTH = 100;

const JSON_CONTENT = 'application/json; charset=utf-8';

function sendEnvelope(
  reply: FastifyReply,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  void reply
    .status(status)
    .headers(headers)
    .header('content-type', JSON_CONTENT)
    .send(JSON.stringify(errorEnvelope(status, message)));
}

/**
 * Errors Fastify's router raises before any route runs: a path that does not percent-decode
 * (`/order/%`, `%zz`, `%C0%80`) is a 400, a path parameter over MAX_PATH_PARAM_LENGTH a 414.
 */
function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendEnvelope(reply, 400, 'Malformed URL: the path is not valid percent-encoding.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendEnvelope(
        reply,
        414,
        `URI too long: a path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters.`,
      );
    default:
      return sendEnvelope(reply, 400, 'Bad request.');
  }
}

/** Options of the gateway's Fastify instance that keep URL and protocol errors in the envelope. */
export const EDGE_FASTIFY_OPTIONS = {
  routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
  frameworkErrors: answerFrameworkError,
  clientErrorHandler: answerClientError,
} satisfies Partial<FastifyServerOptions>;

/** Route config key: the route takes a request body (set by the route table, apiRoutes). */
export const TAKES_BODY = 'consignTakesBody' as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    [TAKES_BODY]?: boolean;
  }
}

/**
 * The JSON body parser (in place of Fastify's): a body that is not JSON is a 400; an empty body is
 * `{}` for an operation that takes none (clients that always send `content-type`), else a 400; and
 * a parsed body breaking the house rules every input obeys (nesting, sizes, NUL, unpaired
 * surrogates, `__proto__`/`constructor`/`prototype` keys: hostileInputProblems) is a 400 naming
 * each field before any hook or handler sees it. JSON.parse itself is iterative in V8, so a
 * 10,000-deep body parses; nothing recursive touches it before the check.
 */
export function parseJsonBodies(app: NestFastifyApplication): void {
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (
      request: FastifyRequest,
      text: string | Buffer,
      done: (error: Error | null, body?: unknown) => void,
    ) => {
      // No route matched: the answer is 404, or 405 with `Allow`, whatever the body holds.
      if (request.is404) return done(null, undefined);
      const body = typeof text === 'string' ? text : text.toString('utf8');
      if (body.length === 0) {
        if (request.routeOptions.config?.[TAKES_BODY] === false) return done(null, {});
        return done(new ApiError(400, 'Request body is empty: send a JSON object.'));
      }
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return done(new ApiError(400, 'Malformed JSON in request body.'));
      }
      const problems = hostileInputProblems(value, body);
      if (problems.length > 0) return done(new ApiError(400, validationMessage(problems)));
      done(null, value);
    },
  );
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The methods a path answers to, when the request's method is not one of them: a request that
 * matched no route but whose path a route of another method matches is a 405 with `Allow`, not a
 * 404. Empty when the path is unknown (or has an empty segment, which matches nothing).
 */
export function allowedMethods(request: FastifyRequest): string[] {
  if (request.routeOptions.url !== undefined) return [];
  const path = request.url.split('?', 1)[0];
  // An empty segment, in the middle or last ('/label/tracking/'), matches nothing.
  if (path.includes('//') || path.endsWith('/')) return [];
  const fastify = request.server;
  return METHODS.filter(
    (method) => method !== request.method && fastify.findRoute({ method, url: path }) !== null,
  );
}
