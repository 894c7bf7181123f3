import { ClassConstructor, ClassTransformOptions, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import {
  CONTRACT_TRANSFORM_OPTIONS,
  hasCompiledValidation,
  sameContractValue,
  validateCompiled,
} from './compiled-validation';
import { TYPE_RULES } from './contract-json-schema';
import { INPUT_LIMITS, hostileInputProblems } from './input-limits';

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: string[] };

const TRANSFORM_OPTIONS: ClassTransformOptions = CONTRACT_TRANSFORM_OPTIONS;

/**
 * Under jest (and with CONSIGN_VALIDATION_PARITY=1) every fast-path answer is checked against
 * class-validator's: a disagreement throws, so the contract specs prove the fast path.
 */
const CHECK_PARITY =
  process.env.CONSIGN_VALIDATION_PARITY === '1' || process.env.NODE_ENV === 'test';

/**
 * Turns a plain JSON value into an instance of a contract class and validates it: first the house
 * rules every input obeys (hostileInputProblems: depth, sizes, NUL, surrogates, reserved keys),
 * then the class's own rules. Unknown properties are stripped. Messages name fields by their API (snake_case) path,
 * e.g. "shipping_address.first_name must be shorter than or equal to 64 characters".
 */
export function validateContract<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  options: {
    /** The house rules were already checked on this very value (the gateway's body parser). */
    inputChecked?: boolean;
  } = {},
): Validated<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    return { ok: false, errors: ['body must be a JSON object'] };
  }
  // Before anything walks it recursively (class-transformer, class-validator, JSON.stringify).
  if (!options.inputChecked) {
    const hostile = hostileInputProblems(plain);
    if (hostile.length > 0) return { ok: false, errors: hostile };
  }
  // The compiled fast path vouches for valid values only; class-validator judges the rest.
  const fast = validateCompiled(cls as new () => T, plain, TRANSFORM_OPTIONS);
  if (CHECK_PARITY) return checkedAgainstClassValidator(cls, plain, fast);
  if (fast !== undefined) return { ok: true, value: fast };
  return validateWithClassValidator(cls, plain);
}

function validateWithClassValidator<T extends object>(
  cls: ClassConstructor<T>,
  plain: object,
): Validated<T> {
  const value = plainToInstance(cls, plain, TRANSFORM_OPTIONS);
  const errors = validateSync(value as object, {
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
  });
  if (errors.length === 0) return { ok: true, value };
  return { ok: false, errors: flattenValidationErrors(errors) };
}

function checkedAgainstClassValidator<T extends object>(
  cls: ClassConstructor<T>,
  plain: object,
  fast: T | undefined,
): Validated<T> {
  const slow = validateWithClassValidator(cls, plain);
  if (fast !== undefined && !slow.ok)
    throw new Error(
      `compiled validation of ${cls.name} accepted what class-validator refuses (${slow.errors.join('; ')}): ${JSON.stringify(plain)}`,
    );
  if (fast === undefined && slow.ok && hasCompiledValidation(cls))
    throw new Error(
      `compiled validation of ${cls.name} refused what class-validator accepts: ${JSON.stringify(plain)}`,
    );
  if (fast !== undefined && slow.ok && !sameContractValue(fast, slow.value))
    throw new Error(
      `compiled validation of ${cls.name} built another value than class-transformer: ${JSON.stringify(plain)}`,
    );
  return slow;
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const error of errors) {
    const path = parent
      ? /^\d+$/.test(error.property)
        ? `${parent}[${error.property}]`
        : `${parent}.${error.property}`
      : error.property;
    // A missing (or null) required field gets one clear message instead of every rule it breaks.
    if (error.constraints && (error.value === undefined || error.value === null)) {
      out.push(`${path} is required`);
      continue;
    }
    for (const message of Object.values(messagesOf(error.constraints ?? {}, error.value))) {
      // class-validator writes the bare property name; give the full API path instead.
      out.push(
        message.startsWith(`${error.property} `)
          ? `${path}${message.slice(error.property.length)}`
          : `${path}: ${message}`,
      );
    }
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, path));
  }
  return out;
}

/** How class-validator begins the message of a rule applied to each element (`each: true`). */
const EACH_PREFIX = 'each value in ';

/** The JavaScript kind of a value of each JSON type (an array is its own here). */
const KIND_OF_JSON_TYPE: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
};

/**
 * A property's failed constraints, by name, to report: when the value is not even of the type a
 * failed rule that gives a value its JSON type takes (TYPE_RULES: the type checks, and the formats
 * of one type; `?page=abc`), only that check's message ("page must be an integer
 * number"), not the limits a value of another type fails besides ("must not be greater than
 * 2147483647"); otherwise all of them (`-1.5` is told both that it must be an integer and its
 * minimum).
 */
function messagesOf(constraints: Record<string, string>, value: unknown): Record<string, string> {
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  const mistyped = Object.keys(constraints).filter(
    (name) =>
      TYPE_RULES[name] !== undefined &&
      KIND_OF_JSON_TYPE[TYPE_RULES[name]] !== kind &&
      // A check of each element (`each: true`, "each value in tags must be a string") says
      // nothing of the property's own type: the array's own limits still count.
      !constraints[name].startsWith(EACH_PREFIX),
  );
  if (mistyped.length === 0) return constraints;
  return Object.fromEntries(mistyped.map((name) => [name, constraints[name]]));
}

/**
 * The message of a 400: the first INPUT_LIMITS.listed_problems problems, and how many more there
 * are, so that a body with ten thousand bad lines gets a short answer.
 */
export function validationMessage(errors: string[]): string {
  const max = INPUT_LIMITS.listed_problems;
  const more = errors.length - max;
  const listed = (more > 0 ? errors.slice(0, max) : errors).join('; ');
  return `Validation failed: ${listed}${more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : ''}`;
}
