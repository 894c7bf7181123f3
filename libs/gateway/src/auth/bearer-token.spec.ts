import type { FastifyRequest } from 'fastify';
import { hashApiKey } from './api-key.service';
import { BEARER_SLOT, bearerTokenOf } from './bearer-token';

function request(authorization?: string): FastifyRequest {
  // As the gateway's requests are: the slot declared (decorateRequest) and null until parsed.
  return { headers: { authorization }, [BEARER_SLOT]: null } as unknown as FastifyRequest;
}

describe('bearerTokenOf', () => {
  it('parses and hashes the key once per request', () => {
    const req = request('Bearer csk_abcdefghijklmnop');
    const first = bearerTokenOf(req);
    expect(first).toEqual({
      token: 'csk_abcdefghijklmnop',
      hash: hashApiKey('csk_abcdefghijklmnop'),
    });
    req.headers.authorization = 'Bearer something-else-entirely';
    expect(bearerTokenOf(req)).toBe(first);
  });

  it.each([undefined, '', 'Basic abc', 'Bearer', 'Bearer a b'])(
    'answers null for %p, and remembers it',
    (header) => {
      const req = request(header);
      expect(bearerTokenOf(req)).toBeNull();
      req.headers.authorization = 'Bearer csk_abcdefghijklmnop';
      expect(bearerTokenOf(req)).toBeNull();
    },
  );

  it('works on a request without the declared slot', () => {
    const req = { headers: { authorization: 'bearer  csk_abcdefghijklmnop ' } } as FastifyRequest;
    expect(bearerTokenOf(req)?.token).toBe('csk_abcdefghijklmnop');
  });
});
