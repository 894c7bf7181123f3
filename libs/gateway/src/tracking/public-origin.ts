import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * Where clients reach this API: PUBLIC_BASE_URL when set (behind a proxy that rewrites hosts),
 * otherwise the request's own scheme and Host. Public links (tracking_url) are built on it.
 */
export const PublicOrigin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const configured = process.env.PUBLIC_BASE_URL?.trim();
    if (configured) return configured.replace(/\/+$/, '');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return `${request.protocol}://${request.headers.host ?? 'localhost'}`;
  },
);
