import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

/** Length of the JSON text of a value, or undefined when it has none (undefined, a function, a cycle). */
export function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON text of the value is at most `max` characters long. */
export function MaxJsonLength(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxJsonLength',
      constraints: [max],
      validator: {
        validate: (value: unknown) => {
          const length = jsonLength(value);
          return length !== undefined && length <= max;
        },
        defaultMessage: buildMessage(
          (each) => `${each}$property must be at most ${max} characters long as JSON text`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * An array of strings whose total length, joined with `separator`, is at most `max` characters
 * (product `tags`: "max length 2046").
 */
export function MaxJoinedLength(
  max: number,
  separator: string,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxJoinedLength',
      constraints: [max, separator],
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.every((item) => typeof item === 'string') &&
          value.join(separator).length <= max,
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be at most ${max} characters long when joined with "${separator}"`,
          options,
        ),
      },
    },
    options,
  );
}

export type OptionValueKind = 'string' | 'string-list';

export function isOptionMap(value: unknown, kind: OptionValueKind): boolean {
  if (!isPlainRecord(value)) return false;
  return Object.entries(value).every(
    ([name, option]) =>
      name.length > 0 &&
      (kind === 'string'
        ? typeof option === 'string'
        : Array.isArray(option) && option.every((item) => typeof item === 'string')),
  );
}

/**
 * An object of options keyed by a non-empty option name: product options map a name to the list
 * of its values (`{"Color": ["Red", "Blue"]}`), variant options a name to one value
 * (`{"Color": "Red"}`).
 */
export function IsOptionMap(kind: OptionValueKind, options?: ValidationOptions): PropertyDecorator {
  const shape =
    kind === 'string'
      ? 'an object mapping each option name to a string value'
      : 'an object mapping each option name to an array of string values';
  return ValidateBy(
    {
      name: 'isOptionMap',
      constraints: [kind],
      validator: {
        validate: (value: unknown) => isOptionMap(value, kind),
        defaultMessage: buildMessage((each) => `${each}$property must be ${shape}`, options),
      },
    },
    options,
  );
}

/** The `sku` values of the variants that occur more than once. */
export function duplicateSkus(variants: unknown): string[] {
  if (!Array.isArray(variants)) return [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const variant of variants) {
    const sku: unknown = isPlainRecord(variant) ? variant.sku : undefined;
    if (typeof sku !== 'string') continue;
    if (seen.has(sku)) duplicates.add(sku);
    seen.add(sku);
  }
  return [...duplicates];
}

/** No two elements of the array share a `sku` (variant SKUs are unique within a product). */
export function UniqueSkus(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'uniqueSkus',
      validator: {
        validate: (value: unknown) => duplicateSkus(value).length === 0,
        defaultMessage: buildMessage(
          (_each, args) =>
            `$property must not contain the same sku twice (${duplicateSkus(args?.value).join(', ')})`,
          options,
        ),
      },
    },
    options,
  );
}
