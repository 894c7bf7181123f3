import { ClassConstructor } from 'class-transformer';
import { validateContract } from '../common/validation';

/**
 * Helpers for the contract specs (pure functions, no test framework). Paths are the API paths
 * the validation messages use: `variants[0].sku`, `shipping_address.zip_code`.
 */

function pathKeys(path: string): string[] {
  return path.replace(/\[(\d+)\]/g, '.$1').split('.');
}

/** Sets the value at `path` in place (deletes the key when `value` is undefined); returns target. */
export function setPath<T extends object>(target: T, path: string, value: unknown): T {
  const keys = pathKeys(path);
  const last = keys.pop() as string;
  let node = target as Record<string, unknown>;
  for (const key of keys) {
    const next = node[key];
    if (typeof next !== 'object' || next === null)
      throw new Error(`no object at "${key}" of ${path}`);
    node = next as Record<string, unknown>;
  }
  if (value === undefined) delete node[last];
  else node[last] = value;
  return target;
}

/** Reads the value at `path`. */
export function getPath(target: object, path: string): unknown {
  return pathKeys(path).reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[key]
        : undefined,
    target,
  );
}

/** The validation messages for a plain value; empty when it is valid. */
export function errorsFor<T extends object>(cls: ClassConstructor<T>, plain: unknown): string[] {
  const result = validateContract(cls, plain);
  return result.ok ? [] : result.errors;
}

/** The validated instance; throws with the messages when the value is invalid. */
export function valueOf<T extends object>(cls: ClassConstructor<T>, plain: unknown): T {
  const result = validateContract(cls, plain);
  if (!result.ok) throw new Error(`expected valid ${cls.name}: ${result.errors.join('; ')}`);
  return result.value;
}

/** Whether a message is about the field at `path` (or something inside it). */
export function isAbout(message: string, path: string): boolean {
  return (
    message.length > path.length &&
    message.startsWith(path) &&
    /^[ :.[]/.test(message.slice(path.length))
  );
}

/**
 * The messages for `plain`, checked to be about `path` only: throws when there are none or when
 * one names another field (which would mean the fixture itself is invalid).
 */
export function errorsOnlyAt<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  path: string,
): string[] {
  const errors = errorsFor(cls, plain);
  if (errors.length === 0) throw new Error(`expected ${cls.name} to be rejected at ${path}`);
  const stray = errors.filter((message) => !isAbout(message, path));
  if (stray.length > 0)
    throw new Error(`expected errors only at ${path}, got: ${errors.join('; ')}`);
  return errors;
}

/** A string of `length` characters. */
export function text(length: number, char = 'x'): string {
  return char.repeat(length);
}

/** Number(12,2) values at and beyond the limits (the same table for every such field). */
export const DECIMAL_12_2 = {
  accepted: [1234567890.12, 9999999999.99, 0.01, 1, 19.9],
  rejected: [12345678901.1, 99999999999, 1.005, 0.001, '1.00', '12', true],
} as const;

/** Number(12,3) values (label weights and dimensions). */
export const DECIMAL_12_3 = {
  accepted: [123456789.123, 999999999.999, 0.001, 1.5],
  rejected: [1234567890.1, 0.0005, 1.0001, '1.5'],
} as const;
