/**
 * Whether this process is shutting down. Set once, on the first SIGTERM/SIGINT, before anything
 * closes: readiness answers 503 from then on, and HTTP responses carry `Connection: close` so that
 * keep-alive clients reconnect (through the load balancer, to another replica) instead of reusing
 * a socket the process is about to close.
 */
export class ShutdownState {
  private since?: number;

  get shuttingDown(): boolean {
    return this.since !== undefined;
  }

  /** When shutdown began (epoch ms), for the readiness details. */
  get startedAt(): number | undefined {
    return this.since;
  }

  begin(now: number = Date.now()): void {
    this.since ??= now;
  }
}

/**
 * Fastify options every app's HTTP server needs for a graceful shutdown: while closing, requests
 * already arriving on open keep-alive connections are served (with `Connection: close`) rather
 * than answered 503, and idle keep-alive sockets are closed so that they do not hold the close.
 */
export const GRACEFUL_FASTIFY_OPTIONS = {
  return503OnClosing: false,
  forceCloseConnections: 'idle',
} as const;
