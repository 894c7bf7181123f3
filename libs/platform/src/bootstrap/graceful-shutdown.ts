import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { Consumer } from 'kafkajs';
import { AppConfig } from '@consign/config';
import { kafkaConsumerHealth, releaseConsumer, drainPacedCommits } from '@consign/bus';
import { ShutdownState } from '../health/shutdown-state';

export interface ShutdownTimings {
  /** SIGTERM only: how long to keep serving with readiness failing. */
  delayMs: number;
  /** The longest wait for in-flight HTTP requests once the listener is closed. */
  drainTimeoutMs: number;
  /** The longest wait for consumers, relays, producers and database to close. */
  closeTimeoutMs: number;
}

export function shutdownTimingsOf(config: AppConfig): ShutdownTimings {
  return {
    delayMs: config.SHUTDOWN_DELAY_MS,
    drainTimeoutMs: config.SHUTDOWN_DRAIN_TIMEOUT_MS,
    closeTimeoutMs: config.SHUTDOWN_CLOSE_TIMEOUT_MS,
  };
}

const exitTasks: (() => Promise<void>)[] = [];
const EXIT_TASKS_TIMEOUT_MS = 5_000;

/** Work to finish after the app has closed and before the process exits (e.g. flushing traces). */
export function runBeforeExit(task: () => Promise<void>): void {
  exitTasks.push(task);
}

async function finishExitTasks(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(exitTasks.map((task) => task())),
    new Promise((resolve) => {
      timer = setTimeout(resolve, EXIT_TASKS_TIMEOUT_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/**
 * SIGTERM (an orchestrator) or SIGINT (Ctrl-C): stop without failing a request or losing a
 * message, then exit 0.
 *
 * 1. Readiness answers 503 at once and responses say `Connection: close`.
 * 2. SIGTERM only: keep serving for SHUTDOWN_DELAY_MS, while the load balancer notices and stops
 *    routing here (Kubernetes removes the endpoint concurrently with sending SIGTERM).
 * 3. Close the listener: new connections are refused, idle keep-alive sockets closed, in-flight
 *    requests finish (Fastify's close waits for them), at most SHUTDOWN_DRAIN_TIMEOUT_MS.
 * 4. Stop the bus server's consumers: kafkajs finishes the batch in hand and commits the offsets
 *    of what was handled.
 * 5. Nest's close: batch consumers and timers stop (beforeApplicationShutdown), outbox relays
 *    publish what is left and stop, then the bus client (producer) and the database close.
 *
 * Steps 4–5 are bounded by SHUTDOWN_CLOSE_TIMEOUT_MS; past it the process exits 1. A second
 * signal exits at once (130). (Nest's own enableShutdownHooks re-raises the signal after
 * closing, so the process would end "killed by SIGTERM" even after a clean close.)
 */
export function exitCleanlyOnSignals(app: INestApplication, name: string): void {
  const logger = new Logger(name);
  const timings = shutdownTimingsOf(app.get(AppConfig));
  const state = app.get(ShutdownState);
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(130);
    }
    closing = true;
    state.begin();
    shutDown(app, logger, signal, timings).then(
      async () => {
        await finishExitTasks();
        logger.log('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function shutDown(
  app: INestApplication,
  logger: Logger,
  signal: NodeJS.Signals,
  timings: ShutdownTimings,
): Promise<void> {
  const delayMs = signal === 'SIGTERM' ? timings.delayMs : 0;
  logger.log(
    `${signal}: stopping; readiness now fails` +
      (delayMs > 0 ? `, still serving for ${delayMs} ms` : ''),
  );
  if (delayMs > 0) await sleep(delayMs);

  const server = app.getHttpServer() as Server;
  logger.log(
    `closing HTTP: refusing new connections, waiting for in-flight requests (at most ${timings.drainTimeoutMs} ms)`,
  );
  const drained = await withinTime(app.getHttpAdapter().close(), timings.drainTimeoutMs);
  if (drained) logger.log('HTTP closed, every request answered');
  else {
    logger.warn(`HTTP drain timed out after ${timings.drainTimeoutMs} ms: closing connections`);
    server.closeAllConnections();
  }

  const closed = withinTime(
    (async () => {
      const consumers = busServerConsumers(app);
      if (consumers.length > 0) {
        logger.log('stopping the bus consumers (finishing and committing what is in hand)');
        for (const consumer of consumers) {
          kafkaConsumerHealth.untrack(consumer);
          releaseConsumer(consumer);
          // Paced commits (BUS_COMMIT_INTERVAL_MS): finish the message in hand, commit, leave.
          await drainPacedCommits(consumer);
          await consumer.disconnect();
        }
        logger.log('bus consumers stopped, offsets committed');
      }
      logger.log('closing: batch consumers, outbox relays (last flush), producers, database');
      await app.close();
    })(),
    timings.closeTimeoutMs,
  );
  if (!(await closed))
    throw new Error(
      `closing took longer than ${timings.closeTimeoutMs} ms (SHUTDOWN_CLOSE_TIMEOUT_MS)`,
    );
}

/** The kafkajs consumers of the app's connected Kafka servers (none on the in-process bus). */
function busServerConsumers(app: INestApplication): Consumer[] {
  const consumers: Consumer[] = [];
  for (const microservice of app.getMicroservices()) {
    let parts: unknown;
    try {
      parts = microservice.unwrap<unknown>();
    } catch {
      continue; // not started, or a transport without an underlying client
    }
    if (!Array.isArray(parts)) continue;
    const consumer: unknown = parts[1];
    if (isConsumer(consumer)) consumers.push(consumer);
  }
  return consumers;
}

function isConsumer(value: unknown): value is Consumer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Consumer>).disconnect === 'function' &&
    typeof (value as Partial<Consumer>).run === 'function'
  );
}

/** Whether the promise settled within the time; a rejection is rethrown. */
async function withinTime(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
