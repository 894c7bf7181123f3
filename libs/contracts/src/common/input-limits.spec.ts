import 'reflect-metadata';
import fc from 'fast-check';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import {
  INPUT_LIMITS,
  forbiddenCharacterIn,
  hostileInputProblems,
  quotedPath,
} from './input-limits';
import { validateContract, validationMessage } from './validation';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('hostileInputProblems', () => {
  it('accepts ordinary JSON, astral characters (paired surrogates) included', () => {
    const body = { name: 'Zoë 👍', lines: [{ sku: 'A-1', quantity: 2 }], note: null, ok: true };
    expect(hostileInputProblems(body)).toEqual([]);
    expect(hostileInputProblems(body, JSON.stringify(body))).toEqual([]);
  });

  it('names a NUL or an unpaired surrogate by the field path, in values and in keys', () => {
    const text = '{"a":{"b":["ok","x\\u0000y"]},"c":"\\ud800","d":"\\udc00x","e\\u0000":1}';
    expect(hostileInputProblems(JSON.parse(text), text)).toEqual([
      'a.b[1] must not contain NUL characters',
      'c must not contain unpaired UTF-16 surrogates',
      'd must not contain unpaired UTF-16 surrogates',
      'the name of e\u0000 must not contain NUL characters',
    ]);
  });

  it('refuses __proto__, constructor and prototype keys at any depth', () => {
    const text = '{"__proto__":{"x":1},"a":[{"constructor":{"prototype":{}}}],"prototype":1}';
    expect(hostileInputProblems(JSON.parse(text), text)).toEqual([
      '__proto__ is not allowed: a reserved name',
      'a[0].constructor is not allowed: a reserved name',
      'prototype is not allowed: a reserved name',
    ]);
  });

  it('bounds nesting without recursion: 10,000 levels are one problem, not a stack overflow', () => {
    const text = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const problems = hostileInputProblems(JSON.parse(text), text);
    expect(problems).toEqual([
      `body${'[0]'.repeat(INPUT_LIMITS.depth)} is nested deeper than ${INPUT_LIMITS.depth} levels`,
    ]);
    expect(hostileInputProblems(nested(INPUT_LIMITS.depth))).toEqual([]);
    expect(hostileInputProblems(nested(INPUT_LIMITS.depth + 1))).toHaveLength(1);
  });

  it('bounds arrays and strings, known fields or not', () => {
    const long = 'x'.repeat(INPUT_LIMITS.string_length + 1);
    expect(
      hostileInputProblems({
        lines: new Array(INPUT_LIMITS.array_items + 1).fill({}),
        unknown: long,
        [long]: 1,
      }),
    ).toEqual([
      `lines must contain no more than ${INPUT_LIMITS.array_items} elements`,
      `unknown must be shorter than or equal to ${INPUT_LIMITS.string_length} characters`,
      `the name of ${'x'.repeat(INPUT_LIMITS.quoted_path - 1)}… is too long`,
    ]);
  });

  it('finds the same problems with or without the JSON text, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 20 }), (value) => {
        const text = JSON.stringify(value);
        expect(hostileInputProblems(JSON.parse(text), text)).toEqual(hostileInputProblems(value));
      }),
      { numRuns: 500 },
    );
  });

  it('checks characters even when the JSON text is not given', () => {
    expect(hostileInputProblems({ a: 'x\u0000' })).toEqual(['a must not contain NUL characters']);
  });
});

describe('forbiddenCharacterIn and quotedPath', () => {
  it('tells NUL from a lone surrogate, and passes pairs', () => {
    expect(forbiddenCharacterIn('a\u0000')).toBe('must not contain NUL characters');
    expect(forbiddenCharacterIn('\udbff')).toBe('must not contain unpaired UTF-16 surrogates');
    expect(forbiddenCharacterIn('\ud83d\udc4d')).toBeUndefined();
  });

  it('cuts a long path', () => {
    expect(quotedPath('a'.repeat(500))).toHaveLength(INPUT_LIMITS.quoted_path);
  });
});

class Note {
  @IsOptional()
  @IsString()
  @MaxLength(5)
  text?: string;
}

describe('validateContract and validationMessage with hostile input', () => {
  it('refuses hostile input before the class rules (queries and bus messages too)', () => {
    expect(validateContract(Note, { text: 'a\u0000' })).toEqual({
      ok: false,
      errors: ['text must not contain NUL characters'],
    });
    expect(validateContract(Note, JSON.parse('{"constructor":"x"}'))).toEqual({
      ok: false,
      errors: ['constructor is not allowed: a reserved name'],
    });
  });

  it('names at most INPUT_LIMITS.listed_problems problems and counts the rest', () => {
    const errors = Array.from({ length: 10_000 }, (_, i) => `items[${i}] is wrong`);
    const message = validationMessage(errors);
    expect(message).toContain('items[9] is wrong; and 9990 more problems');
    expect(message).not.toContain('items[10]');
    expect(message.length).toBeLessThan(400);
    expect(validationMessage(errors.slice(0, 11))).toMatch(/; and 1 more problem$/);
  });
});
