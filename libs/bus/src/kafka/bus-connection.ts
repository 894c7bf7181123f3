import { Logger } from '@nestjs/common';
import { SupervisorOptions, restartDelayMs } from './consumer-supervisor';

export interface BusConnectionStatus {
  /** The consumer group or client it connects, e.g. `order-service-server`. */
  name: string;
  connected: boolean;
  /** Since when (epoch ms) it has been trying, or connected. */
  since: number;
  /** Attempts that failed so far. */
  failedAttempts: number;
  /** Why the last attempt failed. */
  lastError?: string;
}

/**
 * The process's Kafka connections that are still being made: readiness fails while one of them
 * has not connected yet, and says which and why. A connection leaves the registry once it is
 * made: from then on the consumer supervisor and the consumers' own events (KafkaConsumerHealth)
 * say whether it consumes.
 */
export class BusConnections {
  /** Each connection under way, with the promise its making resolves. */
  private readonly connections = new Map<BusConnectionStatus, Promise<void>>();

  add(status: BusConnectionStatus, connected: Promise<void>): void {
    this.connections.set(status, connected);
  }

  remove(status: BusConnectionStatus): void {
    this.connections.delete(status);
  }

  /** The connections not made yet. */
  pending(): BusConnectionStatus[] {
    return [...this.connections.keys()].filter((c) => !c.connected).map((c) => ({ ...c }));
  }

  /**
   * Resolves once every connection under way now is made; never, if one of them is released
   * (shutdown) first. A process says it is ready then, when readiness stops naming them.
   */
  allMade(): Promise<void> {
    return Promise.all(this.connections.values()).then(() => undefined);
  }
}

export const busConnections = new BusConnections();

/**
 * Waits between connection attempts: from ~0.5 s up to 10 s (full jitter). Each attempt itself
 * spends kafkajs' own retries (about 25 s against a refused port), so a broker that comes back is
 * found within seconds.
 */
export const BUS_CONNECT_BACKOFF: SupervisorOptions = {
  initialBackoffMs: 500,
  maxBackoffMs: 10_000,
};

/** The connection of each bus client (ClientKafka) of the process, for the CommandBus. */
export const busClientConnections = new WeakMap<object, BusConnection>();

export interface BusConnection {
  readonly name: string;
  isConnected(): boolean;
  /** Resolves once connected; never rejects (a released connection never resolves). */
  readonly connected: Promise<void>;
  /** Stop trying (shutdown). An attempt under way finishes; nothing is tried after it. */
  release(): void;
}

/**
 * Connects to the broker without ever giving up: `attempt` (connect, subscribe, run) is retried
 * after `reset` (disconnect what the failed attempt left) with exponential backoff and full
 * jitter, for as long as it takes, so that a process started while the broker is unreachable
 * serves its health endpoints, says it is not ready and why, and connects when the broker
 * comes back, instead of exiting once kafkajs' own retries run out (about 25 s).
 */
export function connectInBackground(
  name: string,
  attempt: () => Promise<void>,
  options: {
    reset: () => Promise<void>;
    backoff?: SupervisorOptions;
    registry?: BusConnections;
  },
): BusConnection {
  const logger = new Logger(`BusConnection:${name}`);
  const registry = options.registry ?? busConnections;
  const status: BusConnectionStatus = {
    name,
    connected: false,
    since: Date.now(),
    failedAttempts: 0,
  };
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  let markConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (markConnected = resolve));
  registry.add(status, connected);
  const run = async (): Promise<void> => {
    if (released) return;
    try {
      await attempt();
    } catch (error: unknown) {
      status.failedAttempts++;
      status.lastError = error instanceof Error ? error.message : String(error);
      await options.reset().catch(() => undefined);
      if (released) return;
      const wait = restartDelayMs(status.failedAttempts - 1, options.backoff);
      // The first failure and then every tenth: an outage of hours must not flood the log.
      if (status.failedAttempts === 1 || status.failedAttempts % 10 === 0)
        logger.warn(
          `cannot connect to the broker (attempt ${status.failedAttempts}: ${status.lastError}); trying again in ${wait} ms, and until it answers`,
        );
      timer = setTimeout(() => void run(), wait);
      timer.unref();
      return;
    }
    // Released (shutdown) while this attempt was under way: undo what it connected.
    if (released) {
      await options.reset().catch(() => undefined);
      return;
    }
    if (status.failedAttempts > 0)
      logger.log(`connected to the broker after ${status.failedAttempts} failed attempt(s)`);
    status.connected = true;
    status.since = Date.now();
    registry.remove(status);
    markConnected();
  };
  void run();
  return {
    name,
    isConnected: () => status.connected,
    connected,
    release() {
      released = true;
      if (timer) clearTimeout(timer);
      registry.remove(status);
    },
  };
}
