import type { ClassConstructor } from 'class-transformer';
import {
  PAGE_LIMITS,
  PageQuery,
  nullAsAbsent,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { ApiError } from './api-error';
import { LongId } from './api-envelope';
import type { PathParam } from './route-table';

/**
 * What a route takes, checked before its handler runs: each check answers the value (an optional
 * field given as null left out, as nullAsAbsent says), or throws a 400 naming each offending field.
 */

function checked<T extends object>(
  cls: ClassConstructor<T>,
  inputChecked: boolean,
): (value: unknown) => T {
  const options = { inputChecked };
  return (value) => {
    // No body at all is an empty one; a JSON `null` is a body that is not an object (a 400).
    const result = validateContract(cls, value === undefined ? {} : value, options);
    if (!result.ok) throw new ApiError(400, validationMessage(result.errors));
    return nullAsAbsent(cls, result.value);
  };
}

/**
 * A route's body, as its contract. The body comes from the gateway's JSON parser
 * (parseJsonBodies), which already refused hostile input.
 */
export function bodyOf<T extends object>(cls: ClassConstructor<T>): (value: unknown) => T {
  return checked(cls, true);
}

/** A route's query, as its contract (hostile input checked here). */
export function queryOf<T extends object>(cls: ClassConstructor<T>): (value: unknown) => T {
  return checked(cls, false);
}

const LONG_ID = /^[1-9]\d{0,15}$/;

/** A Long path id: a positive integer within JSON's safe range, else a 400 naming the parameter. */
function parseLongId(value: string, name: string): number {
  const id = LONG_ID.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id))
    throw new ApiError(400, `Validation failed: ${name} must be a positive integer id`);
  return id;
}

/** A route's Long id path parameter (`params: { order_id: longIdParam('The order id.') }`). */
export function longIdParam(description: string): PathParam<number> {
  return { parse: parseLongId, description, schema: LongId };
}

/** A list's page and size, the defaults filled in where the query has none. */
export function pageOf(query: PageQuery): { page: number; size: number } {
  return {
    page: query.page ?? PAGE_LIMITS.default_page,
    size: query.size ?? PAGE_LIMITS.default_size,
  };
}
