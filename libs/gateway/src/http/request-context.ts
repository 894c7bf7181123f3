import { randomUUID } from 'node:crypto';
import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CORRELATION_HEADER } from '@consign/contracts';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's correlation id (if it is a sane one) or a new one; carried to the services. */
export function correlationIdOf(request: FastifyRequest): string {
  const given = request.headers[CORRELATION_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

export const CorrelationId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    correlationIdOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
