import { isDeepStrictEqual } from 'node:util';

/**
 * What `JSON.parse(JSON.stringify(value))` returns, without writing and reading the text (about a
 * third of the time, and far less garbage, for a calculation's reply). It follows JSON.stringify's
 * steps (ECMA-262 SerializeJSONProperty): `toJSON` is called with the key; boxed primitives are
 * unboxed; an object keeps its own enumerable string keys, in order, and loses its prototype;
 * undefined, functions and symbols are dropped from objects and become null in arrays;
 * non-finite numbers become null and -0 becomes 0; a BigInt or a cycle is a TypeError. Under jest
 * (and with CONSIGN_JSON_COPY_PARITY=1) every copy is checked against the real round trip.
 */
export function jsonCopy<T>(value: T): T {
  if (!CHECK_PARITY) return topLevel(value) as T;
  let expected: unknown;
  let expectedError: unknown;
  try {
    expected = JSON.parse(JSON.stringify(value) as string);
  } catch (error) {
    expectedError = error;
  }
  let actual: unknown;
  try {
    actual = topLevel(value);
  } catch (error) {
    if (
      expectedError instanceof Error &&
      error instanceof Error &&
      error.name === expectedError.name
    )
      throw error;
    throw new Error(`jsonCopy threw ${String(error)} where the JSON round trip gave a value`);
  }
  if (expectedError !== undefined || !isDeepStrictEqual(actual, expected))
    throw new Error(`jsonCopy differs from the JSON round trip for ${safeText(value)}`);
  return actual as T;
}

const CHECK_PARITY =
  process.env.CONSIGN_JSON_COPY_PARITY === '1' || process.env.NODE_ENV === 'test';

function topLevel(value: unknown): unknown {
  const copied = copy(value, '', []);
  // JSON.stringify gives undefined, which JSON.parse refuses.
  if (copied === undefined) throw new SyntaxError('"undefined" is not valid JSON');
  return copied;
}

function copy(value: unknown, key: string | number, ancestors: object[]): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function')
      return copyValue(toJSON.call(value, typeof key === 'number' ? String(key) : key), ancestors);
    return copyObject(value, ancestors);
  }
  if (typeof value === 'bigint') {
    const toJSON = (value as unknown as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return copyValue(toJSON.call(value, String(key)), ancestors);
  }
  return copyValue(value, ancestors);
}

function copyValue(value: unknown, ancestors: object[]): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // `+ 0` turns -0 into 0, as its JSON text "0" does.
      return Number.isFinite(value) ? value + 0 : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? null : copyObject(value, ancestors);
    default:
      return undefined;
  }
}

function copyObject(value: object, ancestors: object[]): unknown {
  if (value instanceof Number) return copyValue(Number(value), ancestors);
  if (value instanceof String) return String(value);
  if (value instanceof Boolean) return value.valueOf();
  for (const ancestor of ancestors) {
    if (ancestor === value) throw new TypeError('Converting circular structure to JSON');
  }
  ancestors.push(value);
  let result: unknown;
  if (Array.isArray(value)) {
    const length = value.length;
    const array: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) {
      const item = copy(value[i], i, ancestors);
      array[i] = item === undefined ? null : item;
    }
    result = array;
  } else {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = copy((value as Record<string, unknown>)[key], key, ancestors);
      if (item === undefined) continue;
      // JSON.parse makes "__proto__" an own property; an assignment would set the prototype.
      if (key === '__proto__')
        Object.defineProperty(object, key, {
          value: item,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      else object[key] = item;
    }
    result = object;
  }
  ancestors.pop();
  return result;
}

function safeText(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return String(value);
  }
}
