import { SetMetadata } from '@nestjs/common';

/** Metadata key of a route anyone may call, with no API key (the gateway's guard honours it). */
export const PUBLIC_ROUTE = 'consign:public';

/** A route anyone may call (health, metrics, reference data docs). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

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
