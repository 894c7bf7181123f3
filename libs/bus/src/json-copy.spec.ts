import { jsonCopy } from './json-copy';

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value) as string) as unknown;

class Money {
  constructor(
    readonly amount: number,
    readonly currency: string,
  ) {}
}

class WithToJson {
  toJSON(key: string) {
    return { key };
  }
}

describe('jsonCopy', () => {
  it.each<[string, unknown]>([
    ['a calculation reply', { ok: true, data: [{ amount: 12.34, error_code: null, tags: ['a'] }] }],
    ['class instances (their prototype is lost)', { price: new Money(1.5, 'EUR') }],
    ['dates', { at: new Date('2025-07-01T10:00:00Z') }],
    ['toJSON with the key', { a: new WithToJson(), list: [new WithToJson()] }],
    [
      'undefined, functions and symbols',
      { a: undefined, b: () => 1, c: Symbol('x'), d: [undefined, () => 1] },
    ],
    ['non-finite numbers and -0', { a: Number.NaN, b: Infinity, c: -0, d: [-0, -Infinity] }],
    ['boxed primitives', { a: Object(1), b: Object('x'), c: Object(false) }],
    ['a "__proto__" key', JSON.parse('{"__proto__": {"polluted": true}, "b": 1}')],
    ['holes and extra array properties', Object.assign([1, , 3], { extra: 'x' })], // eslint-disable-line no-sparse-arrays
    ['maps and sets', { m: new Map([['a', 1]]), s: new Set([1]) }],
    ['integer-like keys', { b: 1, 2: 'two', 1: 'one', a: 0 }],
    ['strings with lone surrogates', { s: '\ud800x' }],
    [
      'nested shared references (not cycles)',
      (() => {
        const shared = { x: 1 };
        return { a: shared, b: [shared, shared] };
      })(),
    ],
    ['symbol keys', { [Symbol('k')]: 1, a: 2, [Symbol.iterator]: () => 1 }],
    [
      'getters and non-enumerable properties',
      Object.defineProperty(
        {
          get a() {
            return 1;
          },
        },
        'hidden',
        { value: 2, enumerable: false },
      ),
    ],
    ['objects without a prototype', Object.assign(Object.create(null) as object, { a: [1] })],
    ['objects whose values must all be replaced', { a: { b: undefined }, c: -0, d: NaN, e: [] }],
    [
      'keys that need escaping in code',
      { 'a"b': 1, 'c\\d': 2, '\u2028': 3, '"]; throw new Error(); //': 4, '': 5, $x: 6 },
    ],
    [
      'objects of more keys than a compiled shape takes',
      Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i % 3 ? i : undefined])),
    ],
    [
      'many shapes in one place',
      Array.from({ length: 12 }, (_, i) => ({ [`k${i % 6}`]: i, n: -0, u: i % 2 ? undefined : 1 })),
    ],
    ['primitives', 'text'],
    ['null', null],
  ])('copies %s exactly as the JSON round trip does', (_title, value) => {
    const copy = jsonCopy(value);
    expect(copy).toStrictEqual(roundTrip(value));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it('shares no object with the original', () => {
    const original = { list: [{ a: 1 }] };
    const copy = jsonCopy(original);
    copy.list[0].a = 2;
    expect(original.list[0].a).toBe(1);
    expect(Object.getPrototypeOf(jsonCopy({ __proto__: 1 }))).toBe(Object.prototype);
  });

  it('copies the same when Object.prototype has an enumerable property', () => {
    const value = { a: 1, b: { c: [2, undefined] }, d: undefined };
    // Copied once before, so that its shapes are met again below.
    jsonCopy(value);
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 'x',
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const copy = jsonCopy(value);
      expect(Object.keys(copy)).toEqual(['a', 'b']);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  it('tells apart the shapes met in one place: reordered, fewer and more keys', () => {
    const list = [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      { a: 1 },
      { a: 1, b: 2, c: 3 },
      { a: 1, b: undefined },
      Object.assign(Object.create({ inherited: 1 }) as object, { a: 1, b: 2 }),
      Object.assign(Object.create({ b: 'inherited' }) as object, { a: 1 }),
      { a: 1, b: 2 },
    ];
    for (let round = 0; round < 2; round++) {
      const copy = jsonCopy(list);
      expect(copy).toStrictEqual(roundTrip(list));
      expect(copy.map((item) => Object.keys(item))).toEqual([
        ['a', 'b'],
        ['b', 'a'],
        ['a'],
        ['a', 'b', 'c'],
        ['a'],
        ['a', 'b'],
        ['a'],
        ['a', 'b'],
      ]);
    }
  });

  it('fails where the round trip fails', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy({ n: BigInt(1) })).toThrow(TypeError);
    expect(() => jsonCopy(() => 1)).toThrow(SyntaxError);
  });
});
