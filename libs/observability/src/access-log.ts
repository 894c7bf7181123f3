import { Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OPERATIONAL_PATHS } from './public-route';
import { isLogLevelOn } from './app-logger';
import { activeSpanIds } from './trace-context';

/** What the access log keeps of a request between its first hook and its response. */
interface AccessNote {
  correlationId: string;
  traceId?: string;
  spanId?: string;
  merchantId?: number;
}

const NOTE = Symbol('consign.access');
type NotedRequest = FastifyRequest & { [NOTE]?: AccessNote };

/** Called in the request's first hook: its correlation id and the span it runs in. */
export function noteRequestStart(request: FastifyRequest, correlationId: string): void {
  const span = activeSpanIds();
  (request as NotedRequest)[NOTE] = {
    correlationId,
    traceId: span?.traceId,
    spanId: span?.spanId,
  };
}

/** The authenticated merchant of a request (the gateway's authentication calls this). */
export function noteRequestMerchant(request: FastifyRequest, merchantId: number | null): void {
  const note = (request as NotedRequest)[NOTE];
  if (note && merchantId !== null) note.merchantId = merchantId;
}

/** One access-log line of a request, as its fields (undefined for probes and scrapes). */
export interface AccessLine {
  msg: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  merchant_id?: number;
  correlation_id?: string;
  trace_id?: string;
  span_id?: string;
}

/**
 * The access-log line of a finished request: method, route pattern (never the raw URL, whose
 * path or query may hold ids and anything a client sent), status, duration, merchant and
 * correlation id, and the trace. Never a header: no API key or Authorization value. Health
 * probes and metrics scrapes (every few seconds) are left out.
 */
export function accessLineOf(
  request: FastifyRequest,
  reply: FastifyReply,
  route: string,
): AccessLine | undefined {
  if (OPERATIONAL_PATHS.includes(route)) return undefined;
  const note = (request as NotedRequest)[NOTE];
  const status = reply.statusCode;
  const durationMs = Math.round(reply.elapsedTime * 1000) / 1000;
  const line: AccessLine = {
    msg: `${request.method} ${route} ${status} ${durationMs}ms`,
    method: request.method,
    route,
    status,
    duration_ms: durationMs,
  };
  if (note?.merchantId !== undefined) line.merchant_id = note.merchantId;
  if (note) line.correlation_id = note.correlationId;
  if (note?.traceId) {
    line.trace_id = note.traceId;
    line.span_id = note.spanId;
  }
  return line;
}

const accessLogger = new Logger('HttpAccess');

/**
 * Writes the request's access-log line (see accessLineOf), at level `log`: with LOG_LEVEL=warn
 * or less, no line is built.
 */
export function logAccess(request: FastifyRequest, reply: FastifyReply, route: string): void {
  if (!isLogLevelOn('log')) return;
  const line = accessLineOf(request, reply, route);
  if (line) accessLogger.log(line);
}
