import { IsInt, Max, Min } from 'class-validator';
import { Transformed } from './contract-metadata';

/**
 * Pagination of the list operations (house rules: `page` from 1, `size` default 20, max 100).
 * `page` is capped so that the row offset `(page - 1) * size` always fits a database integer.
 */
export const PAGE_LIMITS = {
  default_page: 1,
  default_size: 20,
  min_size: 1,
  max_size: 100,
  max_page: 2_147_483_647,
} as const;

const DECIMAL_INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * Query parameters arrive as strings. Only plain decimal integer text is converted ("2" → 2);
 * anything else ("abc", "1.5", "1e1", "0x10", "") is left as it is and fails @IsInt.
 */
function toInteger({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && DECIMAL_INTEGER_TEXT.test(value) ? Number(value) : value;
}

/** `page` and `size` query parameters of a list operation. */
export class PageQuery {
  /** Page number, starting at 1. */
  @Transformed(toInteger)
  @IsInt()
  @Min(1)
  @Max(PAGE_LIMITS.max_page)
  page?: number = PAGE_LIMITS.default_page;

  /** Page size, 1 to 100. */
  @Transformed(toInteger)
  @IsInt()
  @Min(PAGE_LIMITS.min_size)
  @Max(PAGE_LIMITS.max_size)
  size?: number = PAGE_LIMITS.default_size;
}
