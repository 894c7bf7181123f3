import fc from 'fast-check';

/**
 * Generators of hostile HTTP requests (fast-check arbitraries) for the fuzz scenario
 * (apps/e2e/src/hostile-input.e2e.spec.ts): each request is built from a valid one and broken in
 * a way the house rules refuse wherever it lands (ARCHITECTURE.md: hostile input is stopped at
 * the edge), so that `mustFail` requests must all be answered 4xx.
 */

export interface HostileRequest {
  method: string;
  path: string;
  /** The body as sent (raw text: it may be malformed or deeper than JSON.stringify allows). */
  body?: string;
  contentType?: string;
  /** Whether the request must be refused (4xx); else it only must not break anything. */
  mustFail: boolean;
  /** What was done to it, for a failure's report. */
  what: string;
}

/** A short form for fast-check's report (bodies can be 150 KB). */
function describe(request: HostileRequest): string {
  const body = request.body === undefined ? '' : ` ${request.body.slice(0, 200)}`;
  const cut = request.body && request.body.length > 200 ? `… (${request.body.length} chars)` : '';
  return `${request.method} ${request.path.slice(0, 200)} [${request.what}]${body}${cut}`;
}

function hostile(request: HostileRequest): HostileRequest {
  return Object.assign(request, { [fc.toStringMethod]: () => describe(request) });
}

const short = fc.string({ maxLength: 12 });

/** JSON texts refused wherever they are put in a body: each with the rule it breaks. */
const poisonedValue: fc.Arbitrary<[string, string]> = fc.oneof(
  fc
    .tuple(short, short)
    .map(([a, b]): [string, string] => ['NUL in a string', JSON.stringify(`${a}\u0000${b}`)]),
  fc
    .tuple(short, fc.integer({ min: 0xd800, max: 0xdfff }), short)
    .map(([a, unit, b]): [string, string] => [
      'unpaired surrogate',
      JSON.stringify(`${a}${String.fromCharCode(unit)}${b}`),
    ]),
  fc
    .integer({ min: 131_071, max: 150_000 })
    .map((n): [string, string] => ['over-long string', JSON.stringify('x'.repeat(n))]),
  fc
    .tuple(fc.integer({ min: 17, max: 10_000 }), fc.boolean())
    .map(([n, arrays]): [string, string] => [
      `${n}-deep nesting`,
      arrays ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
    ]),
  fc
    .tuple(fc.integer({ min: 1001, max: 10_000 }), fc.constantFrom('[]', '0', '""', '{}', 'null'))
    .map(([n, element]): [string, string] => [
      `array of ${n} × ${element}`,
      `[${new Array<string>(n).fill(element).join(',')}]`,
    ]),
  fc
    .constantFrom('__proto__', 'constructor', 'prototype')
    .map((key): [string, string] => [`${key} key`, `{"${key}":{"polluted":true}}`]),
  // Beyond every field's maximum (an id's is 2^53 - 1, a count's 2^31 - 1, a decimal's 12 digits).
  fc
    .constantFrom('1e300', '-1e300', '9007199254740993', '1e16')
    .map((text): [string, string] => ['number beyond any limit', text]),
);

/** Object keys refused wherever they are. */
const poisonedKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype'),
  short.map((a) => `${a}\u0000`),
  short.map((a) => `${a}\udc00`),
);

/** Every path of a JSON value: [] is the value itself, then keys and indexes. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (Array.isArray(value))
    value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

const MARK = '\u0001hostile\u0001';
const MARK_JSON = JSON.stringify(MARK);

/** `body` with the value at `path` replaced by a mark, and the JSON text with the mark swapped. */
function replaced(body: unknown, path: (string | number)[], fragment: string): string {
  if (path.length === 0) return fragment;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  parent[path[path.length - 1]] = MARK;
  return JSON.stringify(copy).replace(MARK_JSON, () => fragment);
}

/** `body` with a key added to the object at `path` (the body itself when it is not an object). */
function withKey(body: unknown, path: (string | number)[], key: string): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target: unknown = copy;
  for (const step of path) target = (target as Record<string | number, unknown>)[step];
  const object =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? (target as Record<string, unknown>)
      : copy;
  object[MARK] = 1;
  return JSON.stringify(copy).replace(MARK_JSON, () => JSON.stringify(key));
}

const INVALID_CODES: [RegExp, string[]][] = [
  [/country_code$/, ['ZZ', 'XX', 'us', 'USA', 'U']],
  [/currency$/, ['XYZ', 'ABC', 'usd', 'EURO', 'US']],
];

/**
 * Bodies refused by the house rules, from a valid one: a poisoned value at any position (a leaf,
 * an object, an array, the whole body), a poisoned key in any object, a country or currency code
 * that is not ISO 3166-1 / ISO 4217, a body that is not a JSON object, or malformed JSON.
 */
export function hostileBodies(valid: unknown): fc.Arbitrary<[string, string]> {
  const paths = pathsOf(valid);
  const codePaths = paths.flatMap((path) => {
    const key = String(path[path.length - 1] ?? '');
    const rule = INVALID_CODES.find(([pattern]) => pattern.test(key));
    return rule ? [{ path, codes: rule[1] }] : [];
  });
  const options: fc.Arbitrary<[string, string]>[] = [
    fc
      .tuple(fc.constantFrom(...paths), poisonedValue)
      .map(([path, [what, fragment]]): [string, string] => [
        `${what} at ${path.join('.') || 'the body'}`,
        replaced(valid, path, fragment),
      ]),
    fc
      .tuple(fc.constantFrom(...paths), poisonedKey)
      .map(([path, key]): [string, string] => [
        `key ${JSON.stringify(key)} in ${path.join('.') || 'the body'}`,
        withKey(valid, path, key),
      ]),
    fc
      .constantFrom('[]', '1', '"text"', 'null', 'true', '[{}]')
      .map((text): [string, string] => ['not an object', text]),
    fc
      .constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '{"a":01}', 'NaN', '{"a":"\\x"}', '\u0000')
      .map((text): [string, string] => ['malformed JSON', text]),
  ];
  if (codePaths.length > 0)
    options.push(
      fc
        .constantFrom(...codePaths)
        .chain(({ path, codes }) =>
          fc
            .constantFrom(...codes)
            .map((code): [string, string] => [
              `code ${code} at ${path.join('.')}`,
              replaced(valid, path, JSON.stringify(code)),
            ]),
        ),
    );
  return fc.oneof(...options);
}

/** Path segments of routes, which a parameter's place could also match (`product/all`). */
const STATIC_SEGMENTS = new Set(['all', 'tracking']);

/** Path segments no route accepts as an id (malformed, unsafe, over-long, not a number). */
export const hostileIds: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%',
    '%zz',
    '%C0%80',
    '%00',
    '%ED%A0%80',
    '%E0%A4%A',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x1F',
    '%20',
    '%EF%BC%91',
    '9007199254740993',
  ),
  fc.integer({ min: 17, max: 400 }).map((n) => '9'.repeat(n)),
  fc
    .string({ minLength: 1, maxLength: 30, unit: 'grapheme' })
    // Not a number, and not `.`/`..`, which a URL resolves away before it is sent.
    .filter((text) => !/^[\d.]*$/.test(text) && !STATIC_SEGMENTS.has(text))
    .map((text) => encodeURIComponent(text)),
);

/** Query strings of a page query that are refused. */
export const hostilePageQueries: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('page', 'size'),
      fc.constantFrom(
        '0',
        '-1',
        'abc',
        '1.5',
        '1e9',
        '%00',
        '%ED%A0%80',
        '',
        '101x',
        '9'.repeat(30),
      ),
    )
    .map(([name, value]) => `?${name}=${value}`),
  fc.constant('?size=101'),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) => `?${key}=1`),
  fc.constant('?page=1&page=2'),
  fc.constantFrom('?page=%00&size=1', '?size=1%00'),
);

/** A request from its parts. */
export function request(
  method: string,
  path: string,
  what: string,
  mustFail: boolean,
  body?: string,
  contentType?: string,
): HostileRequest {
  return hostile({ method, path, what, mustFail, body, contentType });
}
