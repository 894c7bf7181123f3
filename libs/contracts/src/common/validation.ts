import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/**
 * Turns a plain JSON value into an instance of a contract class and validates it.
 * Unknown properties are stripped. Messages name fields by their API (snake_case) path,
 * e.g. "shipping_address.first_name must be shorter than or equal to 64 characters".
 */
export function validateContract<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
): Validated<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    return { ok: false, errors: ['body must be a JSON object'] };
  }
  const value = plainToInstance(cls, plain, {
    enableImplicitConversion: false,
    exposeDefaultValues: true,
  });
  const errors = validateSync(value as object, {
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
  });
  if (errors.length === 0) return { ok: true, value };
  return { ok: false, errors: flattenValidationErrors(errors) };
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
    for (const message of Object.values(error.constraints ?? {})) {
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

export function validationMessage(errors: string[]): string {
  return `Validation failed: ${errors.join('; ')}`;
}
