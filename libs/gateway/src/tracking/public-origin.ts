import type { FastifyRequest } from 'fastify';

/**
 * Where clients reach this API: PUBLIC_BASE_URL when set (behind a proxy that rewrites hosts),
 * otherwise the request's own scheme and Host. Public links (tracking_url) are built on it.
 */
export function publicOriginOf(request: FastifyRequest): string {
  const configured = process.env.PUBLIC_BASE_URL?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.headers.host ?? 'localhost'}`;
}
