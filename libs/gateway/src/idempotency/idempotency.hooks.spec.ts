import { isCommandId } from '@consign/bus';
import { InFlightKeys, idempotentCommandId, isValidIdempotencyKey } from './idempotency.hooks';

describe('idempotentCommandId', () => {
  it('is a UUID, the same for the same merchant and key', () => {
    const id = idempotentCommandId(7, 'order-2026-001');
    expect(isCommandId(id)).toBe(true);
    // Version 8 (name-based, custom hash), RFC 9562 variant.
    expect(id[14]).toBe('8');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(idempotentCommandId(7, 'order-2026-001')).toBe(id);
  });

  it('differs between merchants and between keys, whatever the key holds', () => {
    const ids = new Set([
      idempotentCommandId(7, 'a'),
      idempotentCommandId(8, 'a'),
      idempotentCommandId(7, 'b'),
      // A key that spells another merchant's prefix is still this merchant's.
      idempotentCommandId(7, '8\na'),
      idempotentCommandId(78, 'a'),
    ]);
    expect(ids.size).toBe(5);
  });
});

describe('InFlightKeys', () => {
  it('lets one request hold a key at a time, until it lets go', () => {
    const keys = new InFlightKeys();
    expect(keys.take('7 k', 2000, 0)).toBe(true);
    expect(keys.take('7 k', 2500, 100)).toBe(false);
    expect(keys.take('8 k', 2500, 100)).toBe(true);
    keys.release('7 k');
    expect(keys.take('7 k', 3000, 200)).toBe(true);
    expect(keys.take('8 k', 3000, 200)).toBe(false);
  });

  it('drops the holds that ran out once they pile up, keeping those in progress', () => {
    const keys = new InFlightKeys();
    for (let i = 0; i < 10_000; i++) keys.take(`7 old-${i}`, 1000, 0);
    keys.take('7 live', 5000, 0);
    expect(keys.size).toBe(10_001);
    expect(keys.take('7 next', 6000, 2000)).toBe(true);
    expect(keys.size).toBe(2);
    expect(keys.take('7 live', 7000, 2000)).toBe(false);
  });

  it('takes back a key whose hold ran out (a request that never answered)', () => {
    const keys = new InFlightKeys();
    expect(keys.take('7 k', 2000, 0)).toBe(true);
    expect(keys.take('7 k', 4000, 1999)).toBe(false);
    expect(keys.take('7 k', 4000, 2000)).toBe(true);
  });
});

describe('isValidIdempotencyKey', () => {
  it.each([
    ['a', true],
    ['x'.repeat(255), true],
    ['', false],
    ['x'.repeat(256), false],
    ['tab\there', false],
    ['é', false],
    [['a'], false],
  ])('%j: %s', (value, valid) => {
    expect(isValidIdempotencyKey(value)).toBe(valid);
  });
});
