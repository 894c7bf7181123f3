/** The versions of the client interface: every route under them answers in the envelope. */
export const API_VERSION_PREFIXES = ['/2025-07/', '/2026-05/'] as const;

/** Whether a route pattern (Fastify's `routeOptions.url`) belongs to the client interface. */
export function isApiRoute(url: string): boolean {
  return API_VERSION_PREFIXES.some((prefix) => url.startsWith(prefix));
}
