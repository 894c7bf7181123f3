import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CORRELATION_HEADER } from '@consign/contracts';
import { correlationIdOrNew, runWithCorrelationId } from './correlation';
import { Metrics } from './metrics';

/** Where Prometheus scrapes every app, outside the API envelope, with no API key. */
export const METRICS_PATH = '/metrics';

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
/** A request no route matched (404): one series, not one per URL a scanner tries. */
const UNMATCHED_ROUTE = 'unmatched';

type HttpHistogramChild = ReturnType<Metrics['httpRequestDuration']['labels']>;

/**
 * Per request: the correlation id (taken from `x-correlation-id` when sane, else new; echoed in
 * the response) around everything the request does, and its duration in
 * http_request_duration_seconds by route pattern. Both are plain Fastify hooks, not Nest
 * interceptors (see docs/benchmarks.md for what an interceptor costs); the histogram's labelled
 * children are cached so an observation is a map lookup.
 */
export function instrumentHttp(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const correlationId = correlationIdOrNew(request.headers[CORRELATION_HEADER]);
    reply.header(CORRELATION_HEADER, correlationId);
    runWithCorrelationId(correlationId, done);
  });

  const children = new Map<string, HttpHistogramChild>();
  fastify.addHook(
    'onResponse',
    (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      const statusClass = STATUS_CLASSES[Math.floor(reply.statusCode / 100)] ?? 'other';
      const key = `${request.method} ${statusClass} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = metrics.httpRequestDuration.labels(request.method, route, statusClass);
        children.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
      done();
    },
  );

  fastify.get(METRICS_PATH, { config: { rateLimit: false } }, async (_request, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
