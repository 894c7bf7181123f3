import type { FastifyRequest } from 'fastify';
import { CORRELATION_HEADER } from '@consign/contracts';
import { correlationIdOrNew, currentCorrelationId } from '@consign/observability';

/**
 * The request's correlation id: the one the platform's onRequest hook chose (the caller's
 * `x-correlation-id` when it is a sane one, or a new one) and echoed in the response; carried to
 * the services.
 */
export function correlationIdOf(request: FastifyRequest): string {
  return currentCorrelationId() ?? correlationIdOrNew(request.headers[CORRELATION_HEADER]);
}
