import type { FastifyRequest } from 'fastify';
import { hashApiKey } from './api-key.service';

export interface BearerToken {
  token: string;
  /** SHA-256 of the token: what keys are stored and cached as. */
  hash: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Where a request keeps its parsed token: a request property the gateway's Fastify instance
 * declares (decorateRequest, so every request has it from the start and keeps one shape); null
 * until parsed, false when the request has no bearer token.
 */
export const BEARER_SLOT = 'consignBearer';

type WithBearerSlot = FastifyRequest & { [BEARER_SLOT]?: BearerToken | false | null };

/**
 * The request's `Authorization: Bearer <key>`, parsed and hashed once per request (the rate
 * limiter and the authentication hook both need it; SHA-256 costs ≈ 1 µs).
 */
export function bearerTokenOf(request: FastifyRequest): BearerToken | null {
  const slot = request as WithBearerSlot;
  const known = slot[BEARER_SLOT];
  if (known !== undefined && known !== null) return known || null;
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  const token = match ? { token: match[1], hash: hashApiKey(match[1]) } : null;
  slot[BEARER_SLOT] = token ?? false;
  return token;
}
