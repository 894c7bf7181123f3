import { INestApplicationContext, Logger } from '@nestjs/common';

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
 * Ctrl-C or SIGTERM: close the application (HTTP server, bus, outbox relays, database, in that
 * order of Nest's shutdown hooks) and exit 0. A second signal while closing exits at once.
 * (Nest's own enableShutdownHooks re-raises the signal after closing, so the process would end
 * "killed by SIGINT" even after a clean close.)
 */
export function exitCleanlyOnSignals(app: INestApplicationContext, name: string): void {
  const logger = new Logger(name);
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(130);
    }
    closing = true;
    logger.log(`${signal}: stopping`);
    app.close().then(
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
