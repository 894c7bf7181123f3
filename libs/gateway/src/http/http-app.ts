import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfigOf } from '@consign/config';
import { GRACEFUL_FASTIFY_OPTIONS } from '@consign/platform';
import { LogFormat, createAppLogger, isOperationalPath } from '@consign/observability';
import { envelope, errorEnvelope } from '@consign/contracts';
import rateLimit from '@fastify/rate-limit';
import { BEARER_SLOT, bearerTokenOf } from '../auth/bearer-token';
import { authenticateApiRoutes } from '../auth/api-key.auth';
import { handleIdempotency } from '../idempotency/idempotency.hooks';
import { ApiError } from './api-error';
import { isApiRoute } from './api-routes';
import { apiRoutes } from './api-routes.plugin';
import { RouteTable } from './route-table';
import { setupApiDocs } from './api-docs';
import { EDGE_FASTIFY_OPTIONS, parseJsonBodies } from './edge-rules';
import { sharedRateLimitStore } from './rate-limit-store';
import { GatewayConfig } from '../gateway.config';

/**
 * A Nest application on Fastify. Fastify's own errors (body over the limit: 413, unknown route:
 * 404, or 405 when the path answers to other methods) reach Nest's global filter, which answers
 * them in the envelope; URL errors and request bodies are handled at the edge (edge-rules.ts). Logs
 * go through the platform's logger (LOG_FORMAT, else `logFormat`: json for the gateway process,
 * text for the standalone app).
 */
export async function createHttpApp(
  rootModule: Type<unknown> | ReturnType<typeof Object>,
  config: AppConfig,
  logging: { appName: string; logFormat: LogFormat } = { appName: 'consign', logFormat: 'text' },
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: loadConfigOf(GatewayConfig).BODY_LIMIT_BYTES,
    trustProxy: true,
    // No Nest middleware runs here: without middie, no request goes through its hook.
    skipMiddie: true,
    ...GRACEFUL_FASTIFY_OPTIONS,
    ...EDGE_FASTIFY_OPTIONS,
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: createAppLogger(logging.appName, config, logging.logFormat),
    bufferLogs: false,
    // The JSON body parser is the gateway's own (parseJsonBodies); other types are a 415.
    bodyParser: false,
  });
  await applyHttpRules(app);
  setupApiDocs(app);
  return app;
}

/**
 * The house rules that live in Fastify hooks and parsers (415, the JSON body parser with the
 * hostile-input checks, 429, 401/403, Idempotency-Key and the success envelope), then the API's
 * route table (RouteTable) as a Fastify plugin (apiRoutes). Before init or listen; the
 * application must be created with `bodyParser: false` (Nest's JSON parser would clash with the
 * gateway's).
 */
export async function applyHttpRules(app: NestFastifyApplication): Promise<void> {
  app.getHttpAdapter().getInstance().decorateRequest(BEARER_SLOT, null);
  rejectNonJsonBodies(app);
  parseJsonBodies(app);
  authenticateApiRoutes(app);
  handleIdempotency(app);
  envelopeResults(app);
  await limitRequestRate(app, app.get(GatewayConfig));
  // After the rate limit, whose onRoute hook must see the routes.
  const table = app.get(RouteTable);
  await app.register(apiRoutes, { groups: table.groups, bus: table.bus });
}

/**
 * House rule: too many requests is a 429 in the envelope, with Retry-After. Counted per API key
 * (hashed) or, without one, per client address: in Redis when REDIS_URL is set, so the limit
 * holds across gateway replicas, else in each gateway process's memory (sharedRateLimitStore).
 * The operational endpoints (/health/*, /metrics) are not counted.
 */
async function limitRequestRate(app: NestFastifyApplication, config: GatewayConfig): Promise<void> {
  if (config.RATE_LIMIT_MAX === 0) return;
  await app.register(rateLimit, {
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    ...sharedRateLimitStore(app, config),
    hook: 'onRequest',
    // Probes and scrapers call the operational endpoints every few seconds, from one address.
    allowList: (request) => isOperationalPath(request.url),
    keyGenerator: (request) => {
      const bearer = bearerTokenOf(request);
      return bearer ? `key:${bearer.hash}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new ApiError(
          429,
          `Too many requests: at most ${context.max} per ${context.after}. Retry later.`,
        ),
        {
          statusCode: 429,
        },
      ),
  });
}

/**
 * House rule: a successful result goes out as `{code: 200, message, data}` with HTTP 200, creates
 * included. Done in a Fastify hook rather than a Nest interceptor: any global interceptor puts
 * every request through Nest's rxjs/AsyncResource chain (≈15 µs a request, see
 * docs/benchmarks.md); and a callback hook, not an async one (no promise per request). Failures
 * are already envelopes (status >= 400) and pass through.
 */
function envelopeResults(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preSerialization', (request, reply, payload: unknown, done) => {
      const url = request.routeOptions.url;
      if (reply.statusCode >= 400 || url === undefined || !isApiRoute(url))
        return done(null, payload);
      reply.status(200);
      done(null, envelope(payload));
    });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** A request body that is not JSON is a 415 before any parser or route sees it. */
function rejectNonJsonBodies(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      const length = Number(request.headers['content-length'] ?? 0);
      const hasBody = length > 0 || request.headers['transfer-encoding'] !== undefined;
      const type = request.headers['content-type'];
      if (hasBody && (typeof type !== 'string' || !JSON_TYPE.test(type))) {
        // Answered here: a hook that replies does not call done.
        reply
          .status(415)
          .header('content-type', 'application/json; charset=utf-8')
          .send(errorEnvelope(415, 'Unsupported media type: send the body as application/json.'));
        return;
      }
      done();
    });
}
