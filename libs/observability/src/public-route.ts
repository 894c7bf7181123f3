/**
 * The operational endpoints every app serves outside the API versions: no API key, no envelope,
 * not counted by the rate limit (probes and scrapers call them every few seconds).
 */
export const OPERATIONAL_PATHS: readonly string[] = ['/health/live', '/health/ready', '/metrics'];

/** Whether a request URL (path and query) is one of the operational endpoints. */
export function isOperationalPath(url: string): boolean {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return OPERATIONAL_PATHS.includes(path);
}
