/** A timestamptz column as ISO 8601 UTC with milliseconds and `Z`, as Date#toISOString writes it. */
export function isoUtc(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A timestamptz column as `yyyy-MM-dd HH:mm:ss` in UTC (order-tracking checkpoints). */
export function plainUtc(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
}
