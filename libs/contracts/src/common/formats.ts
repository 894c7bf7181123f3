import {
  IsInt,
  Max,
  Min,
  ValidateBy,
  ValidationOptions,
  buildMessage,
  isISO31661Alpha2,
  isISO4217CurrencyCode,
  isISO8601,
} from 'class-validator';

/**
 * Field formats shared by several contracts. Each has a plain predicate (usable outside
 * class-validator, e.g. by a compiled schema or a service) and a decorator.
 */

/**
 * Largest count (quantity, package number) accepted: the spec gives no maximum, and a count must
 * fit a 32-bit database integer so that an absurd value is a 400, not a storage error.
 */
export const MAX_COUNT = 2_147_483_647;

/**
 * Largest id accepted: ids are 64-bit in the database, and a JSON number above 2^53 - 1 has lost
 * digits before it is read, so a larger one is a 400 (the gateway's path ids have the same bound).
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * An id (with `each`, a list of ids): a positive integer no larger than MAX_ID. It is
 * class-validator's `@Max(MAX_ID) @Min(1) @IsInt()`, so its rules and messages are theirs.
 */
export function IsId(options?: ValidationOptions): PropertyDecorator {
  const rules = [Max(MAX_ID, options), Min(1, options), IsInt(options)];
  return (target, property) => {
    for (const rule of rules) rule(target, property);
  };
}

/**
 * ISO 3166-1 alpha-2: two uppercase letters ("US", "DE") that name an assigned country, per
 * validator.js' list (class-validator's IsISO31661Alpha2): "ZZ" is refused.
 */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
export const COUNTRY_CODE_LENGTH = 2;

/**
 * ISO 4217: three uppercase letters ("USD", "EUR") that name an active currency, per
 * validator.js' list (class-validator's IsISO4217CurrencyCode): "XYZ" is refused. The spec writes
 * "max 3"; a shorter or lower-case code is not a currency, so this is deliberately stricter.
 */
export const CURRENCY_CODE_PATTERN = /^[A-Z]{3}$/;
export const CURRENCY_CODE_LENGTH = 3;

/** "Must contain @": one `@` with something (no whitespace, no further `@`) on each side. */
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+$/;

/** `yyyy-MM-dd`, and a real calendar date (2025-02-30 is refused). */
export const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date with a time of day: `yyyy-MM-ddTHH:mm[:ss[.sss]]` and an optional zone (`Z`, `±hh:mm`). */
export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && COUNTRY_CODE_PATTERN.test(value) && isISO31661Alpha2(value);
}

export function isCurrencyCode(value: unknown): value is string {
  return (
    typeof value === 'string' && CURRENCY_CODE_PATTERN.test(value) && isISO4217CurrencyCode(value)
  );
}

export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && EMAIL_PATTERN.test(value);
}

/**
 * The last instant PostgreSQL's timestamptz reads as JavaScript's Date writes it: a later one is in
 * a five-digit year (a carrier's `9999-12-31T23:59:59-14:00` once answered 500).
 */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CALENDAR_DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // PostgreSQL has no year 0.
  if (year < 1) return false;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 onto 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/**
 * ISO 8601 date and time of day (a date alone is not a point in time), with a valid date (from
 * the year 100: validator.js' strict reading), that JavaScript reads (not `09:30:00,5`) as an
 * instant up to the year 9999 in UTC.
 */
export function isIsoDateTime(value: unknown): value is string {
  if (
    typeof value !== 'string' ||
    !DATE_TIME_PATTERN.test(value) ||
    !isISO8601(value, { strict: true, strictSeparator: true })
  )
    return false;
  return Date.parse(value) <= LAST_INSTANT;
}

function formatDecorator(
  name: string,
  predicate: (value: unknown) => boolean,
  description: string,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => predicate(value),
        defaultMessage: buildMessage((each) => `${each}$property must be ${description}`, options),
      },
    },
    options,
  );
}

export function IsCountryCode(options?: ValidationOptions): PropertyDecorator {
  return formatDecorator(
    'isCountryCode',
    isCountryCode,
    'an ISO 3166-1 alpha-2 country code (two uppercase letters naming a country, e.g. US)',
    options,
  );
}

export function IsCurrencyCode(options?: ValidationOptions): PropertyDecorator {
  return formatDecorator(
    'isCurrencyCode',
    isCurrencyCode,
    'an ISO 4217 currency code (three uppercase letters naming a currency, e.g. USD)',
    options,
  );
}

export function IsEmailAddress(options?: ValidationOptions): PropertyDecorator {
  return formatDecorator(
    'isEmailAddress',
    isEmailAddress,
    'an email address containing @',
    options,
  );
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return formatDecorator(
    'isCalendarDate',
    isCalendarDate,
    'a calendar date in the format yyyy-MM-dd',
    options,
  );
}

export function IsIsoDateTime(options?: ValidationOptions): PropertyDecorator {
  return formatDecorator(
    'isIsoDateTime',
    isIsoDateTime,
    'an ISO 8601 date-time (yyyy-MM-ddTHH:mm:ss with an optional zone)',
    options,
  );
}

/** The zone of a date-time: `Z`, `±hh:mm` or `±hhmm`. */
export const ZONE_SUFFIX_PATTERN = /(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO 8601 date-time that says which zone it is in (`Z` or an offset): a carrier reports local
 * times, and without the zone the instant is unknown.
 */
export function isZonedDateTime(value: unknown): value is string {
  return isIsoDateTime(value) && ZONE_SUFFIX_PATTERN.test(value);
}

export function IsZonedDateTime(options?: ValidationOptions): PropertyDecorator {
  return formatDecorator(
    'isZonedDateTime',
    isZonedDateTime,
    'an ISO 8601 date-time with its zone (yyyy-MM-ddTHH:mm:ss followed by Z or ±hh:mm)',
    options,
  );
}
