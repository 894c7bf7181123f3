import { types } from 'pg';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function parseBigint(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`bigint ${text} is beyond the safe integer range`);
  return value;
}

/**
 * `pg` hands `bigint` and `numeric` back as strings. Consign's ids are bigints well inside 2^53,
 * and its numerics are numeric(12,2) (at most 12 significant digits, which a double carries
 * exactly to its shortest text), so both are mapped to numbers here, per connection pool rather
 * than by mutating pg's global parsers.
 */
export const consignPgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return parseBigint;
    if (oid === NUMERIC_OID) return (text: string) => Number(text);
    return types.getTypeParser(oid, format);
  },
};
