import {
  MAX_CANONICAL_DEPTH,
  TooDeeplyNestedError,
  canonicalJson,
  requestFingerprint,
} from './fingerprint';

describe('request fingerprints', () => {
  it('reads two bodies that differ only in member order or whitespace as the same', () => {
    const a = JSON.parse('{"b": [1, {"y": 2, "x": 1}], "a": "é", "c": null}') as unknown;
    const b = JSON.parse('{"c":null,"a":"é","b":[1,{"x":1,"y":2}]}') as unknown;
    expect(canonicalJson(a)).toBe('{"a":"é","b":[1,{"x":1,"y":2}],"c":null}');
    expect(requestFingerprint('POST /o', a)).toBe(requestFingerprint('POST /o', b));
  });

  it('tells apart another value, another target, and no body from an empty one', () => {
    const body = { quantity: 1 };
    const base = requestFingerprint('POST /2025-07/cloud/order', body);
    expect(requestFingerprint('POST /2025-07/cloud/order', { quantity: 2 })).not.toBe(base);
    expect(requestFingerprint('POST /2025-07/cloud/order', { quantity: '1' })).not.toBe(base);
    expect(requestFingerprint('POST /2025-07/cloud/order/1/hold', body)).not.toBe(base);
    expect(requestFingerprint('POST /x', undefined)).not.toBe(requestFingerprint('POST /x', {}));
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes what JSON would carry: undefined members dropped, undefined items null', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
    expect(canonicalJson(new Date('2026-01-02T03:04:05.000Z'))).toBe('"2026-01-02T03:04:05.000Z"');
  });

  it('refuses nesting deeper than its bound instead of exhausting the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_CANONICAL_DEPTH; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(TooDeeplyNestedError);
    let fine: unknown = 1;
    for (let i = 0; i < MAX_CANONICAL_DEPTH; i++) fine = { a: fine };
    expect(canonicalJson(fine)).toContain('"a":');
  });
});
