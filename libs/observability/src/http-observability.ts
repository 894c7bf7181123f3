import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CORRELATION_HEADER } from '@consign/contracts';
import { logAccess, noteRequestStart } from './access-log';
import { correlationIdOrNew, runWithCorrelationId } from './correlation';
import { HistogramSeries } from './fast-histogram';
import { Metrics } from './metrics';

/** Where Prometheus scrapes every app, outside the API envelope, with no API key. */
export const METRICS_PATH = '/metrics';

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
/** A request no route matched (404): one series, not one per URL a scanner tries. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Per request: the correlation id (taken from `x-correlation-id` when sane, else new; echoed in
 * the response) around everything the request does, its duration in
 * http_request_duration_seconds by route pattern, and its access-log line (access-log.ts). Both are plain Fastify hooks, not Nest
 * interceptors (see docs/benchmarks.md for what an interceptor costs); the histogram's series
 * are cached by a key, so an observation is a map lookup and a bucket search.
 */
export function instrumentHttp(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const correlationId = correlationIdOrNew(request.headers[CORRELATION_HEADER]);
    reply.header(CORRELATION_HEADER, correlationId);
    noteRequestStart(request, correlationId);
    runWithCorrelationId(correlationId, done);
  });

  // route -> method -> series by status class: lookups by strings Fastify already holds (their
  // hashes are cached), no key built per request.
  const byRoute = new Map<string, Map<string, HistogramSeries[]>>();
  const seriesOf = (route: string, method: string, statusClass: number): HistogramSeries => {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = []));
    return (byStatus[statusClass] ??= metrics.httpRequestDuration.series(
      method,
      route,
      STATUS_CLASSES[statusClass] ?? 'other',
    ));
  };
  fastify.addHook(
    'onResponse',
    (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const statusClass = Math.floor(reply.statusCode / 100);
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      seriesOf(route, request.method, statusClass).observe(reply.elapsedTime / 1000);
      logAccess(request, reply, route);
      done();
    },
  );

  fastify.get(METRICS_PATH, { config: { rateLimit: false } }, async (_request, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
