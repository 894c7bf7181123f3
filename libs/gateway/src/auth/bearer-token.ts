import type { FastifyRequest } from 'fastify';
import { hashApiKey } from './api-key.service';

export interface BearerToken {
  token: string;
  /** SHA-256 of the token: what keys are stored and cached as. */
  hash: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const seen = new WeakMap<object, BearerToken | null>();

/**
 * The request's `Authorization: Bearer <key>`, parsed and hashed once per request (the rate
 * limiter and the auth guard both need it; SHA-256 costs ≈ 9 µs).
 */
export function bearerTokenOf(request: FastifyRequest): BearerToken | null {
  const raw = request.raw;
  if (seen.has(raw)) return seen.get(raw) ?? null;
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  const token = match ? { token: match[1], hash: hashApiKey(match[1]) } : null;
  seen.set(raw, token);
  return token;
}
