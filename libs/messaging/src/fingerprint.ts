import { hash } from 'node:crypto';

/** Deepest nesting canonicalJson follows; deeper input is refused rather than risk the stack. */
export const MAX_CANONICAL_DEPTH = 64;

export class TooDeeplyNestedError extends Error {
  constructor() {
    super(`nested deeper than ${MAX_CANONICAL_DEPTH} levels`);
    this.name = 'TooDeeplyNestedError';
  }
}

/**
 * JSON with every object's keys sorted, so that two bodies that mean the same (the same members
 * in another order, other whitespace) read the same. Values as JSON.stringify writes them
 * (undefined members left out, undefined array items as null).
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

function write(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depth >= MAX_CANONICAL_DEPTH) throw new TooDeeplyNestedError();
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += value[i] === undefined ? 'null' : write(value[i], depth + 1);
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  if (typeof (record as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(record);
  let out = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(key) + ':' + write(member, depth + 1);
  }
  return out + '}';
}

/**
 * What identifies a request for idempotency: SHA-256 (hex) of what it addresses (method and path
 * at the gateway, the topic at a service) and its canonical body. Throws TooDeeplyNestedError.
 */
export function requestFingerprint(target: string, body: unknown): string {
  return hash('sha256', `${target}\n${body === undefined ? '' : canonicalJson(body)}`, 'hex');
}
