/**
 * House limits on every request, whatever its contract (ARCHITECTURE.md: hostile input is stopped
 * at the edge). Each field also has its own limit (the spec's, or a house limit beside the
 * context's other limits); these bound what no field limit reaches: nesting, unknown fields, and
 * the size of an error message.
 */
export const INPUT_LIMITS = {
  /** Deepest nesting of objects and arrays in a body or query (the deepest contract uses 4). */
  depth: 16,
  /** Most elements of any array, known field or not. */
  array_items: 1000,
  /**
   * Longest string (value or object key), known field or not, in UTF-16 code units: twice the
   * longest field limit (`body_html`, 65535 characters, may be astral characters).
   */
  string_length: 131_070,
  /** Problems named in one error message; the rest are counted ("and 12 more"). */
  listed_problems: 10,
  /** Longest field path quoted in an error message (longer ones are cut with "…"). */
  quoted_path: 80,
} as const;

/** Object keys that would reach an object's prototype machinery if code ever copied them. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

const hasOwn = Object.prototype.hasOwnProperty;

/** What a text may not contain: NUL, or a UTF-16 surrogate that is not part of a pair. */
const FORBIDDEN_CHARACTER =
  // eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
  /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string may not be accepted anywhere, or undefined when it may. */
export function forbiddenCharacterIn(text: string): string | undefined {
  const match = FORBIDDEN_CHARACTER.exec(text);
  if (!match) return undefined;
  return match[0] === '\u0000'
    ? 'must not contain NUL characters'
    : 'must not contain unpaired UTF-16 surrogates';
}

/** A field path as an error message quotes it: at most INPUT_LIMITS.quoted_path characters. */
export function quotedPath(path: string): string {
  const max = INPUT_LIMITS.quoted_path;
  return path.length <= max ? path : `${path.slice(0, max - 1)}…`;
}

function keyPath(parent: string, key: string): string {
  const name = quotedPath(key);
  return parent ? `${parent}.${name}` : name;
}

/** A value still to check, or a problem found with a key, in document order. */
type Pending = { value: unknown; path: string; depth: number } | { problem: string };

/**
 * What makes a parsed JSON value (a body, or a query object) unacceptable whatever the contract:
 * nesting deeper than INPUT_LIMITS.depth, an array longer than INPUT_LIMITS.array_items, a string
 * or key longer than INPUT_LIMITS.string_length, NUL or an unpaired surrogate in a string or key,
 * or a reserved key (`__proto__`, `constructor`, `prototype`). Each problem names its field by
 * its API path (`sku_items[3].sku_number`), in document order. Iterative, so any depth is safe;
 * every problem is listed (the body size bounds them), and validationMessage names the first few.
 *
 * `text`, the JSON text `value` was parsed from, lets it skip the character checks when no string
 * can hold NUL or a surrogate (JSON can only write them as `\u` escapes) and the key checks when
 * no reserved name appears.
 */
export function hostileInputProblems(value: unknown, text?: string): string[] {
  const checkCharacters = text === undefined || text.includes('\\u');
  const checkKeys =
    checkCharacters ||
    text.includes('__proto__') ||
    text.includes('constructor') ||
    text.includes('prototype');
  if (isClean(value, checkCharacters, checkKeys)) return [];
  const problems: string[] = [];
  const stack: Pending[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if ('problem' in next) {
      problems.push(next.problem);
      continue;
    }
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      if (current.length > INPUT_LIMITS.string_length)
        problems.push(
          `${path || 'value'} must be shorter than or equal to ${INPUT_LIMITS.string_length} characters`,
        );
      else if (checkCharacters) {
        const why = forbiddenCharacterIn(current);
        if (why) problems.push(`${path || 'value'} ${why}`);
      }
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= INPUT_LIMITS.depth) {
      problems.push(`${path || 'body'} is nested deeper than ${INPUT_LIMITS.depth} levels`);
      continue;
    }
    if (Array.isArray(current)) {
      if (current.length > INPUT_LIMITS.array_items) {
        problems.push(
          `${path || 'body'} must contain no more than ${INPUT_LIMITS.array_items} elements`,
        );
        continue;
      }
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], path: `${path || 'body'}[${i}]`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const at = keyPath(path, key);
      const why = checkKeys
        ? keyProblem(key)
        : key.length > INPUT_LIMITS.string_length
          ? 'is too long'
          : undefined;
      if (why)
        stack.push({
          problem:
            why === RESERVED ? `${at} is not allowed: a reserved name` : `the name of ${at} ${why}`,
        });
      else
        stack.push({
          value: (current as Record<string, unknown>)[key],
          path: at,
          depth: depth + 1,
        });
    }
  }
  return problems;
}

const RESERVED = 'reserved';

function keyProblem(key: string): string | undefined {
  if (RESERVED_KEYS.has(key)) return RESERVED;
  if (key.length > INPUT_LIMITS.string_length) return 'is too long';
  return forbiddenCharacterIn(key);
}

/**
 * The same rules as hostileInputProblems, as a yes/no and without building a path per field: the
 * common case (a clean body, ≈ 3× faster), the slow walk runs only to name what is wrong.
 */
function isClean(value: unknown, checkCharacters: boolean, checkKeys: boolean): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current === 'string') {
      if (current.length > INPUT_LIMITS.string_length) return false;
      if (checkCharacters && FORBIDDEN_CHARACTER.test(current)) return false;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= INPUT_LIMITS.depth) return false;
    if (Array.isArray(current)) {
      if (current.length > INPUT_LIMITS.array_items) return false;
      for (let i = 0; i < current.length; i++) {
        values.push(current[i]);
        depths.push(depth + 1);
      }
      continue;
    }
    // for…in: the own keys without building their array (a parsed body inherits no enumerable key).
    for (const key in current) {
      if (!hasOwn.call(current, key)) continue;
      if (key.length > INPUT_LIMITS.string_length) return false;
      if (checkKeys && (RESERVED_KEYS.has(key) || FORBIDDEN_CHARACTER.test(key))) return false;
      values.push((current as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return true;
}
